import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { isUnauthorized } from '../shared/staff-api.ts'
import { RefusalAlert, refusalOf, type Refusal } from './batch-refusal.tsx'

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
  send,
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
  const [isSending, setIsSending] = useState(false)
  const [done, setDone] = useState('')
  const [refusal, setRefusal] = useState<Refusal>()
  const outcomeRef = useRef<HTMLDivElement>(null)
  const [answered, setAnswered] = useState(0)
  useEffect(() => {
    if (focusOutcome && answered > 0) outcomeRef.current?.focus()
  }, [focusOutcome, answered])

  async function submit(event: FormEvent) {
    event.preventDefault()
    const file = fileRef.current?.files?.[0]
    if (!file) return
    setIsSending(true)
    setDone('')
    setRefusal(undefined)
    try {
      const answer = await send(await file.text())
      const { imported } = answer
      setDone(
        doneText?.(answer) ??
          `${imported.toLocaleString('en-US')} ${unit}${imported === 1 ? '' : 's'} imported.`,
      )
      if (fileRef.current) fileRef.current.value = ''
      onImported()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf(`The ${unit}s were not imported`, error))
    } finally {
      setIsSending(false)
      setAnswered((n) => n + 1)
    }
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
