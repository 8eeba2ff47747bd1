import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { RefusalAlert, useRefusableSend } from './batch-refusal.tsx'

/**
 * One of a batch's CSV imports (the provider's case numbers, the post office's certified mail numbers),
 * the file sent as it is. The server keeps nothing of a file with a faulty line; its refusal names the
 * first 100 such lines and ends "… and 2,400 more" when there are others, each line an item of the alert.
 * With `focusOutcome`, the line that says what came of it (or the refusal) takes the focus, for a page
 * whose import is one step among others and a keyboard user would otherwise hunt for the answer.
 */
export function CsvImportForm<T extends { imported: number }>({
  title,
  fileLabel,
  unit,
  send: importFile,
  doneText,
  focusOutcome = false,
  onImported,
  onUnauthorized,
}: {
  /** The form's name and its button: "Import case numbers". */
  title: { form: string; button: string }
  fileLabel: ReactNode
  /** What one line brings, singular: "case number". */
  unit: string
  send: (csv: string) => Promise<T>
  /** What the answer says, when more than "3 case numbers imported.". */
  doneText?: (answer: T) => string
  focusOutcome?: boolean
  onImported: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const fileRef = useRef<HTMLInputElement>(null)
  const [done, setDone] = useState('')
  const { isSending, refusal, outcomeRef, send } = useRefusableSend({ onUnauthorized, focusOutcome })

  async function submit(event: FormEvent) {
    event.preventDefault()
    const file = fileRef.current?.files?.[0]
    if (!file) return
    setDone('')
    await send(`The ${unit}s were not imported`, async () => {
      const answer = await importFile(await file.text())
      const { imported } = answer
      setDone(
        doneText?.(answer) ??
          `${imported.toLocaleString('en-US')} ${unit}${imported === 1 ? '' : 's'} imported.`,
      )
      if (fileRef.current) fileRef.current.value = ''
      onImported()
    })
  }

  return (
    <form className="move-form batch-form" aria-label={title.form} onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-file`}>{fileLabel}</label>
      <input
        id={`${id}-file`}
        ref={fileRef}
        className="form-control"
        type="file"
        accept=".csv,text/csv"
        required
      />
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Importing…' : title.button}
      </button>
      <div ref={outcomeRef} tabIndex={focusOutcome ? -1 : undefined}>
        <p className="move-outcome" role="status">
          {done}
        </p>
        {refusal ? <RefusalAlert refusal={refusal} /> : null}
      </div>
    </form>
  )
}
