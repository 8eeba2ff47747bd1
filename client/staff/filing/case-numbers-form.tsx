import { useId, useRef, useState, type FormEvent } from 'react'
import type { Batch } from '../../../src/api/filing-batches.ts'
import { isUnauthorized } from '../staff-api.ts'
import { importCaseNumbers } from './batch-api.ts'
import { RefusalAlert, refusalOf, type Refusal } from './batch-refusal.tsx'

/**
 * "Import case numbers": the provider's CSV of row IDs and case numbers, sent as it is. The server keeps
 * nothing of a file with a faulty line; its refusal names the first 100 such lines and ends "… and 2,400
 * more" when there are others, each line an item of the alert.
 */
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
      const { imported } = await importCaseNumbers({ slug, batchId: batch.id, csv: await file.text() })
      setDone(`${imported.toLocaleString('en-US')} case number${imported === 1 ? '' : 's'} imported.`)
      if (fileRef.current) fileRef.current.value = ''
      onImported()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf('The case numbers were not imported', error))
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form
      className="move-form batch-form"
      aria-label={`Import case numbers of filing batch ${batch.id}`}
      onSubmit={(event) => void submit(event)}
    >
      <label htmlFor={`${id}-file`}>Provider&apos;s case-number CSV</label>
      <input
        id={`${id}-file`}
        ref={fileRef}
        className="form-control"
        type="file"
        accept=".csv,text/csv"
        required
      />
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Importing…' : 'Import case numbers'}
      </button>
      <p className="move-outcome" role="status">
        {done}
      </p>
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
    </form>
  )
}
