import type { Batch } from '../../../src/api/filing-batches.ts'
import { importCaseNumbers } from './batch-api.ts'
import { CsvImportForm } from './csv-import-form.tsx'

/** "Import case numbers": the provider's CSV of row IDs and case numbers for a filing batch. */
export function CaseNumbersForm({
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
      title={{ form: `Import case numbers of filing batch ${batch.id}`, button: 'Import case numbers' }}
      fileLabel="Provider's case-number CSV"
      unit="case number"
      send={(csv) => importCaseNumbers({ slug, batchId: batch.id, csv })}
      onImported={onImported}
      onUnauthorized={onUnauthorized}
    />
  )
}
