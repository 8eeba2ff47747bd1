import { useId, useRef, useState, type FormEvent } from 'react'
import type { Batch } from '../../../src/api/filing-batches.ts'
import { isUnauthorized } from '../staff-api.ts'
import { importTrackingNumbers } from './batch-api.ts'
import { RefusalAlert, refusalOf, type Refusal } from './batch-refusal.tsx'

/**
 * "Import certified mail numbers": the post office's CSV of claim IDs and tracking numbers for a sent
 * notice batch, a number a claimant. Like the case-number import, a file with any faulty line is refused
 * whole, each such line an item of the alert.
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
  const id = useId()
  const fileRef = useRef<HTMLInputElement>(null)
  const [isSending, setIsSending] = useState(false)
  const [done, setDone] = useState('')
  const [refusal, setRefusal] = useState<Refusal>()

  async function submit(event: FormEvent) {
    event.preventDefault()
    const file = fileRef.current?.files?.[0]
    if (!file) return
    setIsSending(true)
    setDone('')
    setRefusal(undefined)
    try {
      const { imported } = await importTrackingNumbers({ slug, batchId: batch.id, csv: await file.text() })
      setDone(
        `${imported.toLocaleString('en-US')} certified mail number${imported === 1 ? '' : 's'} imported.`,
      )
      if (fileRef.current) fileRef.current.value = ''
      onImported()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf('The certified mail numbers were not imported', error))
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form
      className="move-form batch-form"
      aria-label={`Import certified mail numbers of notice batch ${batch.id}`}
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${id}-file`}>
        Certified mail CSV (Claim ID, Tracking Number) for notice batch {batch.id}
      </label>
      <input
        id={`${id}-file`}
        ref={fileRef}
        className="form-control"
        type="file"
        accept=".csv,text/csv"
        required
      />
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Importing…' : 'Import certified mail numbers'}
      </button>
      <p className="move-outcome" role="status">
        {done}
      </p>
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
    </form>
  )
}
