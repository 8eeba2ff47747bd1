import { useId, useState, type FormEvent } from 'react'
import {
  NOTICE_METHOD_LABELS,
  NOTICE_METHODS,
  type Batch,
  type NoticeMethod,
} from '../../../src/api/filing-batches.ts'
import { firmDay } from '../format.ts'
import { isUnauthorized } from '../staff-api.ts'
import { markNoticeSent } from './batch-api.ts'
import { RefusalAlert, refusalOf, type Refusal } from './batch-refusal.tsx'

/**
 * "Mark sent": the day a ready notice batch went to the respondent (today unless changed, never before
 * it was built nor after today), how, and the certified mail number or e-mail's reference. Each
 * claim's waiting period runs from that day.
 */
export function MarkSentForm({
  slug,
  batch,
  onSent,
  onUnauthorized,
}: {
  slug: string
  batch: Batch
  onSent: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const today = firmDay()
  const [sentOn, setSentOn] = useState(today)
  const [method, setMethod] = useState<NoticeMethod>('certified_mail')
  const [tracking, setTracking] = useState('')
  const [isSending, setIsSending] = useState(false)
  const [refusal, setRefusal] = useState<Refusal>()
  const label = `Mark notice batch ${batch.id} sent`

  async function submit(event: FormEvent) {
    event.preventDefault()
    setIsSending(true)
    setRefusal(undefined)
    try {
      const reference = tracking.trim()
      await markNoticeSent({
        slug,
        batchId: batch.id,
        sent: { sentOn, method, ...(reference ? { tracking: reference } : {}) },
      })
      onSent()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setRefusal(refusalOf(`Notice batch ${batch.id} was not marked sent`, error))
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form className="move-form batch-form" aria-label={label} onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-on`}>Sent on</label>
      <input
        id={`${id}-on`}
        className="form-control"
        type="date"
        required
        min={firmDay(batch.createdAt)}
        max={today}
        value={sentOn}
        onChange={(event) => setSentOn(event.target.value)}
      />
      <label htmlFor={`${id}-how`}>How</label>
      <select
        id={`${id}-how`}
        className="form-control"
        value={method}
        onChange={(event) => setMethod(event.target.value as NoticeMethod)}
      >
        {NOTICE_METHODS.map((each) => (
          <option key={each} value={each}>
            {NOTICE_METHOD_LABELS[each]}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-tracking`}>Certified mail number or e-mail reference</label>
      <input
        id={`${id}-tracking`}
        className="form-control"
        type="text"
        autoComplete="off"
        maxLength={100}
        required={method === 'certified_mail'}
        value={tracking}
        onChange={(event) => setTracking(event.target.value)}
      />
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Marking…' : label}
      </button>
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
    </form>
  )
}
