import type { Batch } from '../../../src/api/filing-batches.ts'
import { importTrackingNumbers } from './batch-api.ts'
import { CsvImportForm } from './csv-import-form.tsx'

/**
 * "Import certified mail numbers": the post office's CSV of claim IDs and tracking numbers for a sent
 * notice batch, a number a claimant.
 */
export function TrackingNumbersForm({
  slug,
  batch,
  onImported,
  onUnauthorized,
}: {
  slug: string
  batch: Batch
  onImported: () => void
  onUnauthorized: () => void
}) {
  return (
    <CsvImportForm
      title={{
        form: `Import certified mail numbers of notice batch ${batch.id}`,
        button: 'Import certified mail numbers',
      }}
      fileLabel={`Certified mail CSV (Claim ID, Tracking Number) for notice batch ${batch.id}`}
      unit="certified mail number"
      send={(csv) => importTrackingNumbers({ slug, batchId: batch.id, csv })}
      onImported={onImported}
      onUnauthorized={onUnauthorized}
    />
  )
}
