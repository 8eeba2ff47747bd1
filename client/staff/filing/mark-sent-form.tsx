import { useId, useState, type FormEvent } from 'react'
import {
  NOTICE_METHOD_LABELS,
  NOTICE_METHODS,
  type Batch,
  type NoticeMethod,
} from '../../../src/api/filing-batches.ts'
import { firmDay } from '../shared/format.ts'
import { isUnauthorized } from '../shared/staff-api.ts'
import { markNoticeSent } from './batch-api.ts'
import { RefusalAlert, refusalOf, type Refusal } from './batch-refusal.tsx'

/**
 * "Mark sent": the day a ready notice batch went to the respondent (today unless changed, never before
 * it was built nor after today), how, and one number for the whole batch or the e-mail's reference
 * (certified mail a piece a claimant gets each claimant's number by a CSV import after). Each claim's
 * waiting period runs from that day.
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
      <label htmlFor={`${id}-tracking`}>One number for the whole batch, or the e-mail&apos;s reference</label>
      <input
        id={`${id}-tracking`}
        className="form-control"
        type="text"
        autoComplete="off"
        maxLength={100}
        aria-describedby={`${id}-tracking-hint`}
        value={tracking}
        onChange={(event) => setTracking(event.target.value)}
      />
      <p id={`${id}-tracking-hint`} className="hint">
        Certified mail sent a piece a claimant: leave it empty and import each claimant&apos;s number once the
        batch is marked sent.
      </p>
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Marking…' : label}
      </button>
      {refusal ? <RefusalAlert refusal={refusal} /> : null}
    </form>
  )
}
