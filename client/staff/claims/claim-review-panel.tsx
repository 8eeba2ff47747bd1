import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react'
import type { ClaimReview } from '../../../src/api/review.ts'
import { MAX_REVIEW_NOTE_LENGTH } from '../../../src/review-config.ts'
import { formatDateTime, formatLongDay, formatZonedDateTime } from '../shared/format.ts'
import { fetchClaimReview, isUnauthorized, moveClaim } from '../shared/staff-api.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'

/**
 * A claim's review in its details: the status, the moves this account may make (with a reason where
 * the status needs one, and an internal note) and the history of every move. A move another reviewer
 * made meanwhile wins: the refusal says so and the review is loaded again.
 */
export function ClaimReviewPanel({
  claimId,
  onMoved,
  focusDecision = false,
  onUnauthorized,
}: {
  claimId: number
  /**
   * The claim moved (`message` says where): the list's status and the status counts change with it.
   * Without it the panel shows the message and loads the review again.
   */
  onMoved?: (message: string) => void
  /** Put the focus on the decision (the first move) once the review is shown. */
  focusDecision?: boolean
  onUnauthorized: () => void
}) {
  const [loads, setLoads] = useState(0)
  const review = useStaffResource({
    key: `${claimId}:${loads}`,
    load: (signal) => fetchClaimReview({ id: claimId, signal }),
    onUnauthorized,
  })
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'refused'; message: string }>()
  return (
    <div className="claim-review">
      <h3>Review</h3>
      {review.status === 'failed' ? (
        <p className="alert" role="alert">
          The claim&apos;s review could not be loaded: {review.message}.
        </p>
      ) : review.data === undefined ? (
        <p>Loading the review…</p>
      ) : (
        <>
          <p>
            Status: <strong>{review.data.statusLabels[review.data.status] ?? review.data.status}</strong>
          </p>
          {review.data.disownedAt ? (
            <p className="alert">
              The owner of the claim&apos;s e-mail said &ldquo;This wasn&apos;t me&rdquo; on{' '}
              {formatDateTime(review.data.disownedAt)}.
            </p>
          ) : null}
          <p>
            Main form:{' '}
            {review.data.intake ? (
              // the intake's details are the admins'; others see the reference the claimant quotes
              <>
                <a href={`/staff/intake/${review.data.intake.id}`}>{review.data.intake.reference}</a>
                {review.data.intake.confirmed ? null : ', not confirmed'}
              </>
            ) : (
              'none filed with this e-mail and phone'
            )}
          </p>
          {review.data.moves.length > 0 ? (
            <MoveForm
              key={`${claimId}:${review.data.version}`}
              review={review.data}
              focusDecision={focusDecision && outcome === undefined}
              onMoved={(message) => {
                setOutcome({ kind: 'done', message })
                setLoads((n) => n + 1)
                onMoved?.(message)
              }}
              onRefused={(message) => {
                setOutcome({ kind: 'refused', message })
                setLoads((n) => n + 1)
              }}
              onUnauthorized={onUnauthorized}
            />
          ) : (
            <p>
              A reviewer cannot move a claim on from{' '}
              {review.data.statusLabels[review.data.status] ?? review.data.status}.
            </p>
          )}
          {outcome ? (
            <p
              className={outcome.kind === 'refused' ? 'alert' : 'move-outcome'}
              role={outcome.kind === 'refused' ? 'alert' : 'status'}
            >
              {outcome.message}
            </p>
          ) : null}
          <FilingStatus review={review.data} />
          <CureStatus review={review.data} />
          <Amendments review={review.data} />
          <History review={review.data} />
        </>
      )}
    </div>
  )
}

function MoveForm({
  review,
  focusDecision,
  onMoved,
  onRefused,
  onUnauthorized,
}: {
  review: ClaimReview
  focusDecision: boolean
  onMoved: (message: string) => void
  onRefused: (message: string) => void
  onUnauthorized: () => void
}) {
  const id = useId()
  // nothing is chosen for the reviewer: a decision is never one key press away
  const [to, setTo] = useState('')
  const [reason, setReason] = useState('')
  const [reasonText, setReasonText] = useState('')
  const [note, setNote] = useState('')
  const [isSending, setIsSending] = useState(false)
  const target = review.moves.find((move) => move.to === to)
  const freeText = review.reasons.find((each) => each.name === reason)?.freeText === true
  // a reason's text goes to the claimant only with a move that sends the deficiency notice
  const toldText = target?.sendsNotice ? review.reasons.find((each) => each.name === reason)?.text : undefined
  const formRef = useRef<HTMLFormElement>(null)
  const focusMove = (index: number) => {
    const radio = formRef.current?.querySelectorAll<HTMLInputElement>('input[type="radio"]')[index]
    // the panel's own scroll moves only if the choice is out of sight: the screenshot stays in view
    radio?.focus({ preventScroll: true })
    radio?.scrollIntoView({ block: 'nearest' })
  }
  useMoveKeys(review.moves, (index) => {
    setTo(review.moves[index]!.to)
    focusMove(index)
  })
  useEffect(() => {
    if (focusDecision) focusMove(0)
    // once, as the form first shows
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!target) return
    setIsSending(true)
    try {
      await moveClaim({
        id: review.claimId,
        move: {
          to: target.to,
          version: review.version,
          ...(reason ? { reason } : {}),
          ...(freeText ? { reasonText } : {}),
          ...(note.trim() ? { note } : {}),
        },
      })
      onMoved(`Claim ${review.claimId} moved to ${target.label}.`)
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      onRefused(`The move was not made: ${error instanceof Error ? error.message : String(error)}.`)
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form className="move-form" ref={formRef} onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>Move to</legend>
        {review.moves.map((move) => (
          <label key={move.to} className="move-choice">
            <input
              type="radio"
              name={`${id}-to`}
              value={move.to}
              checked={move.to === to}
              required
              onChange={() => setTo(move.to)}
            />
            {move.label}
          </label>
        ))}
      </fieldset>
      <p className="keys-hint">
        Keys: <kbd>1</kbd>
        {review.moves.length > 1 ? (
          <>
            –<kbd>{review.moves.length}</kbd>
          </>
        ) : null}{' '}
        choose a move, then <kbd>Enter</kbd> makes it.
      </p>
      <label htmlFor={`${id}-reason`}>Reason{target?.needsReason ? '' : ' (optional)'}</label>
      <select
        id={`${id}-reason`}
        className="form-control"
        value={reason}
        required={target?.needsReason === true}
        onChange={(event) => setReason(event.target.value)}
        aria-describedby={toldText ? `${id}-reason-told` : undefined}
      >
        <option value="">{target?.needsReason ? 'Choose a reason' : 'No reason'}</option>
        {review.reasons.map((each) => (
          <option key={each.name} value={each.name}>
            {each.label}
          </option>
        ))}
      </select>
      {toldText ? (
        <p id={`${id}-reason-told`} className="reason-told">
          The claimant will be told: “{toldText}”
        </p>
      ) : null}
      {freeText ? (
        <>
          <label htmlFor={`${id}-reason-text`}>What the claimant is told</label>
          <textarea
            id={`${id}-reason-text`}
            className="form-control"
            value={reasonText}
            required
            maxLength={MAX_REVIEW_NOTE_LENGTH}
            onChange={(event) => setReasonText(event.target.value)}
          />
        </>
      ) : null}
      <label htmlFor={`${id}-note`}>Internal note (never shown to the claimant, optional)</label>
      <textarea
        id={`${id}-note`}
        className="form-control"
        value={note}
        maxLength={MAX_REVIEW_NOTE_LENGTH}
        onChange={(event) => setNote(event.target.value)}
      />
      <button type="submit" className="primary" disabled={isSending}>
        {isSending ? 'Moving…' : target ? `Move to ${target.label}` : 'Move'}
      </button>
    </form>
  )
}

function History({ review }: { review: ClaimReview }) {
  const label = (status: string) => review.statusLabels[status] ?? status
  const reasonLabel = (name: string) => review.reasons.find((each) => each.name === name)?.label ?? name
  if (review.history.length === 0) return <p>No move yet: the claim is as it arrived.</p>
  return (
    <>
      <h4>History</h4>
      <ol className="review-history">
        {review.history.map((move, i) => (
          <li key={i}>
            <span className="review-when">{formatDateTime(move.at)}</span> {label(move.from)} →{' '}
            {label(move.to)}
            {move.reason ? `, ${reasonLabel(move.reason)}` : ''}
            {move.reasonText ? ` (“${move.reasonText}”)` : ''}, by{' '}
            {move.actor === 'claimant' || move.actor === 'server' ? `the ${move.actor}` : move.actor}
            {move.note ? <p className="review-note">Note: {move.note}</p> : null}
          </li>
        ))}
      </ol>
    </>
  )
}

/** Where the claim stands with its notice of dispute and its filing, once it is in a batch. */
function FilingStatus({ review }: { review: ClaimReview }) {
  const { filing } = review
  if (!filing) return null
  return (
    <>
      <h4>Notice and filing</h4>
      <ul className="claim-filing">
        {filing.noticeSentOn ? (
          <li>
            Notice sent on {formatLongDay(filing.noticeSentOn)}
            {filing.mayFileFrom ? `, may file from ${formatLongDay(filing.mayFileFrom)}` : ''}
            {filing.noticeTracking ? `, certified mail ${filing.noticeTracking}` : ''}
          </li>
        ) : filing.noticeBatchId !== null ? (
          <li>In notice batch {filing.noticeBatchId}, not sent yet</li>
        ) : null}
        {filing.filingBatchId !== null ? (
          <li>
            Filed in batch {filing.filingBatchId}
            {filing.rowId ? ` as ${filing.rowId}` : ''}
          </li>
        ) : null}
        {filing.caseNumber ? <li>Case number: {filing.caseNumber}</li> : null}
      </ul>
    </>
  )
}

/** The deficiency notice's period: when it ends, the e-mails sent, whether the claimant opened a link. */
function CureStatus({ review }: { review: ClaimReview }) {
  const { cure } = review
  if (!cure) return null
  const sent =
    cure.noticesSent === 0
      ? 'The notice is being sent.'
      : `Notice sent${cure.noticesSent > 1 ? `, and ${cure.noticesSent - 1} reminder${cure.noticesSent > 2 ? 's' : ''}` : ''}.`
  return (
    <p className="cure-status">
      {cure.endedAt ? (
        <>
          Cure period {formatZonedDateTime(cure.startedAt)} to {formatZonedDateTime(cure.expiresAt)}
          {cure.outcome === 'cured'
            ? `; the claimant sent corrections on ${formatZonedDateTime(cure.endedAt)}.`
            : cure.outcome === 'expired'
              ? ': it ran out without corrections.'
              : `; a move ended it on ${formatZonedDateTime(cure.endedAt)}.`}
        </>
      ) : (
        `Cure period open until ${formatZonedDateTime(cure.expiresAt)}.`
      )}{' '}
      {sent}{' '}
      {cure.openedAt
        ? `The claimant opened the link on ${formatDateTime(cure.openedAt)}.`
        : 'The link has not been opened.'}
    </p>
  )
}

/** What the claimant sent to cure the claim, each beside what it answers; the original stays as signed. */
function Amendments({ review }: { review: ClaimReview }) {
  if (review.amendments.length === 0) return null
  const reasonLabel = (name: string) => review.reasons.find((each) => each.name === name)?.label ?? name
  return (
    <>
      <h4>Sent by the claimant</h4>
      <ul className="amendments">
        {review.amendments.map((amendment) => (
          <li key={amendment.id}>
            <p>
              <span className="review-when">{formatDateTime(amendment.at)}</span> amendment {amendment.id},
              for {amendment.reasons.map(reasonLabel).join(', ')}
            </p>
            {amendment.fields?.firstName !== undefined ? (
              <p>
                Name: {String(amendment.fields.firstName)} {String(amendment.fields.lastName ?? '')}
              </p>
            ) : null}
            {amendment.fields?.over18 === true ? <p>States they are 18 or over.</p> : null}
            {amendment.hasScreenshot ? (
              <a
                href={`/api/staff/claims/${review.claimId}/amendments/${amendment.id}/screenshot`}
                target="_blank"
                rel="noopener"
              >
                View the new screenshot
              </a>
            ) : null}
            {amendment.signature ? (
              <img className="amendment-signature" src={amendment.signature} alt="The new signature" />
            ) : null}
          </li>
        ))}
      </ul>
    </>
  )
}

/** Fields that take typed text: a digit typed there is text, not a shortcut. */
const TYPING = 'textarea, select, input:not([type="radio"]):not([type="checkbox"])'

/**
 * The moves' keys: 1 to 9 choose the first to ninth move open to the reviewer (and focus it, so Enter
 * makes it), unless the person is typing in a field or holds a modifier.
 */
function useMoveKeys(moves: readonly unknown[], choose: (index: number) => void): void {
  const latest = useRef({ count: moves.length, choose })
  useLayoutEffect(() => {
    latest.current = { count: moves.length, choose }
  })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
      if (event.target instanceof Element && event.target.matches(TYPING)) return
      const index = Number(event.key) - 1
      if (!Number.isInteger(index) || index < 0 || index >= latest.current.count) return
      event.preventDefault()
      latest.current.choose(index)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
}
