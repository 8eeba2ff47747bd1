import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { MAX_FRAUD_NOTE_LENGTH, type ClaimFraud, type RelatedClaim } from '../../../src/api/fraud.ts'
import { MAX_SCORE } from '../../../src/fraud-config.ts'
import { Link } from '../../routing/router.tsx'
import { formatDateTime } from '../shared/format.ts'
import { claimDashboardHref, isUnauthorized } from '../shared/staff-api.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { clearFraud, fetchClaimFraud } from './fraud-api.ts'

/**
 * A claim's details, "Fraud score": the score and where it stands by the app's thresholds, each
 * reason (its test, the points it took, the staff's sentence and the claims that made it fire, as
 * links), the link to the claim's cluster, and for an account with the decide right, "Not fraud" with
 * a note, which clears the claim's hold and is on record. Once cleared: who, when and why.
 */
export function FraudScorePanel({
  claimId,
  app,
  onOpenClaim,
  onDecided,
  onUnauthorized,
}: {
  claimId: number
  app: string
  /** Opens another claim of this app in the details. */
  onOpenClaim: (id: number) => void
  /** "Not fraud" was decided: the list's standing follows. */
  onDecided: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const [loads, setLoads] = useState(0)
  // once "Not fraud" is decided here, the focus goes to the sentence that says so (the form is gone)
  const [isJustCleared, setIsJustCleared] = useState(false)
  const fraud = useStaffResource({
    key: JSON.stringify([claimId, loads]),
    load: (signal) => fetchClaimFraud({ id: claimId, signal }),
    onUnauthorized,
  })
  const data = fraud.data
  const clearedRef = useRef<HTMLParagraphElement>(null)
  const isCleared = data?.cleared != null
  useEffect(() => {
    if (!isJustCleared || !isCleared) return
    clearedRef.current?.focus()
    setIsJustCleared(false)
  }, [isJustCleared, isCleared])
  return (
    <section className={`fraud-panel fraud-${data?.standing ?? 'unscored'}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Fraud score</h3>
      {fraud.status === 'failed' ? (
        <p className="alert" role="alert">
          The fraud score could not be loaded: {fraud.message}. Press Refresh to try again.
        </p>
      ) : !data ? (
        <p>Loading the fraud score…</p>
      ) : (
        <>
          <p className="fraud-summary">{summary(data)}</p>
          {data.reasons.length > 0 ? (
            <ul className="fraud-reasons">
              {data.reasons.map((reason) => (
                <li key={reason.code}>
                  <p>
                    <strong>{reason.label}</strong> (−{reason.points} points): {reason.text}
                  </p>
                  {reason.related.length > 0 ? (
                    <p className="fraud-related">
                      Related: <RelatedLinks related={reason.related} app={app} onOpenClaim={onOpenClaim} />
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}
          {data.clusterSize > 1 ? (
            <p>
              <Link to={`/${encodeURIComponent(app)}-admin/claims/${claimId}/cluster`}>
                Show cluster ({data.clusterSize}
                {data.isClusterCapped ? '+' : ''} claims)
              </Link>
            </p>
          ) : null}
          {data.cleared ? (
            <p className="fraud-cleared" tabIndex={-1} ref={clearedRef}>
              Cleared as not fraud by {data.cleared.by} on {formatDateTime(data.cleared.at)}, at score{' '}
              {data.cleared.score}: “{data.cleared.note}”
            </p>
          ) : data.mayDecide && (data.standing === 'hold' || data.standing === 'review') ? (
            <NotFraudForm
              claimId={claimId}
              onCleared={() => {
                setIsJustCleared(true)
                setLoads((n) => n + 1)
                onDecided()
              }}
              onUnauthorized={onUnauthorized}
            />
          ) : null}
        </>
      )}
    </section>
  )
}

/** What the score means now, in one sentence. */
function summary(data: ClaimFraud): string {
  const { score, thresholds } = data
  const of = `${score} of ${MAX_SCORE.toLocaleString('en-US')}`
  switch (data.standing) {
    case 'unscored':
      return 'Not scored yet: the score follows within a minute of the claim’s arrival.'
    case 'hold':
      return `${of}: Hold. At or below ${thresholds.hold}, the claim stays out of notice and filing batches until a decider clears it.`
    case 'review':
      return `${of}: Review. At or below ${thresholds.review}, look at the reasons before deciding.`
    case 'clear':
      return `${of}: Clear, above the review threshold (${thresholds.review}).`
    case 'cleared':
      return `${of}: Cleared as not fraud.`
  }
}

/** The claims that made a reason fire: this app's open in the details, another app's on its dashboard. */
function RelatedLinks({
  related,
  app,
  onOpenClaim,
}: {
  related: RelatedClaim[]
  app: string
  onOpenClaim: (id: number) => void
}) {
  return related.map((claim, index) => (
    <span key={claim.id}>
      {index > 0 ? ', ' : ''}
      <a
        href={claimDashboardHref(claim)}
        onClick={(event) => {
          if (claim.app !== app || event.ctrlKey || event.metaKey || event.shiftKey) return
          event.preventDefault()
          onOpenClaim(claim.id)
        }}
      >
        Claim {claim.id}
        {claim.app === app ? '' : ` (${claim.app})`}
      </a>
    </span>
  ))
}

/** "Not fraud": a note is required (the server refuses one without), then the hold is cleared. */
function NotFraudForm({
  claimId,
  onCleared,
  onUnauthorized,
}: {
  claimId: number
  onCleared: () => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const [note, setNote] = useState('')
  const [isSending, setIsSending] = useState(false)
  const [problem, setProblem] = useState<string>()

  async function submit(event: FormEvent) {
    event.preventDefault()
    setProblem(undefined)
    setIsSending(true)
    try {
      await clearFraud({ id: claimId, note })
      onCleared()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setProblem(`Not cleared: ${error instanceof Error ? error.message : String(error)}.`)
    } finally {
      setIsSending(false)
    }
  }

  return (
    <form className="not-fraud-form" onSubmit={(event) => void submit(event)}>
      <label htmlFor={`${id}-note`}>Why it is not fraud (required; kept with the decision)</label>
      <textarea
        id={`${id}-note`}
        className="form-control"
        value={note}
        required
        maxLength={MAX_FRAUD_NOTE_LENGTH}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setNote(event.target.value)}
      />
      <p id={`${id}-hint`} className="hint">
        At most {MAX_FRAUD_NOTE_LENGTH} characters. “Not fraud” clears this claim’s hold only.
      </p>
      <div className="action-row">
        <button type="submit" className="secondary" disabled={isSending}>
          Not fraud
        </button>
      </div>
      {problem ? (
        <p className="alert" role="alert">
          {problem}
        </p>
      ) : null}
    </form>
  )
}
