import { useState } from 'react'
import type { DuplicateScreenshot } from '../../src/api/staff.ts'
import {
  claimDashboardHref,
  decideDuplicate,
  fetchClaimReview,
  fetchDuplicateScreenshots,
  isUnauthorized,
  type StaffSubmission,
} from './staff-api.ts'
import { useStaffResource } from './use-staff-resource.ts'

/**
 * A flagged claim's details: for each other claimant's claim with the same screenshot, both
 * screenshots side by side, a link that opens that claim (in this dashboard when it is this app's, else
 * in its own app's), and, for an account with the decide right, the decision: "Not a duplicate" unflags
 * the pair, "Duplicate" makes the review config's move. Each is on the claim's record.
 */
export function DuplicateScreenshots({
  submission,
  app,
  onOpenClaim,
  onDecided,
  onUnauthorized,
}: {
  submission: StaffSubmission
  app: string
  onOpenClaim: (id: number) => void
  /** A decision was made: the claim's flag, status and the list change with it. */
  onDecided: () => void
  onUnauthorized: () => void
}) {
  const [loads, setLoads] = useState(0)
  const matches = useStaffResource({
    key: JSON.stringify([submission.id, submission.duplicateOf, loads]),
    load: (signal) => fetchDuplicateScreenshots({ id: submission.id, signal }),
    onUnauthorized,
  })
  const review = useStaffResource({
    key: JSON.stringify([submission.id, loads]),
    load: (signal) => fetchClaimReview({ id: submission.id, signal }),
    onUnauthorized,
  })
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'refused'; message: string }>()
  const [sending, setSending] = useState<number>()

  async function decide(match: DuplicateScreenshot, decision: 'duplicate' | 'not_duplicate') {
    if (!review.data) return
    setSending(match.id)
    try {
      const decided = await decideDuplicate({
        id: submission.id,
        decision: { decision, other: match.id, version: review.data.version },
      })
      setOutcome({
        kind: 'done',
        message:
          decision === 'not_duplicate'
            ? `Claim ${submission.id} is not a duplicate of claim ${match.id}${decided.flagged ? '' : ': it is no longer flagged'}.`
            : `Claim ${submission.id} moved to ${review.data.duplicateMove?.label ?? decided.status} as a duplicate of claim ${match.id}.`,
      })
      onDecided()
    } catch (error) {
      if (isUnauthorized(error)) return onUnauthorized()
      setOutcome({
        kind: 'refused',
        message: `The decision was not made: ${error instanceof Error ? error.message : String(error)}.`,
      })
    } finally {
      setSending(undefined)
      setLoads((n) => n + 1)
    }
  }

  const listed =
    matches.data ?? submission.duplicateOf.map((id) => ({ id, app, appName: '', kind: 'near' as const }))
  return (
    <section className="duplicate-screenshots" aria-label="Flagged as a duplicate">
      <h3>Flagged: same screenshot as another claimant</h3>
      {matches.status === 'failed' ? (
        <p className="alert" role="alert">
          The matching claims could not be loaded: {matches.message}.
        </p>
      ) : (
        <ul className="duplicate-pairs">
          {listed.map((match) => (
            <li key={match.id}>
              <p>
                <a
                  href={claimDashboardHref(match)}
                  onClick={(event) => {
                    if (match.app !== app || event.ctrlKey || event.metaKey || event.shiftKey) return
                    event.preventDefault()
                    onOpenClaim(match.id)
                  }}
                >
                  Claim {match.id}
                  {match.appName ? ` (${match.appName})` : ''}
                </a>
                {match.appName ? (match.kind === 'exact' ? ': the same file' : ': a near copy') : ''}
              </p>
              <div className="side-by-side">
                <figure>
                  <img
                    src={submission.screenshotUrl}
                    alt={`Screenshot of claim ${submission.id}`}
                    loading="lazy"
                  />
                  <figcaption>This claim ({submission.id})</figcaption>
                </figure>
                <figure>
                  <img
                    src={`/api/staff/claims/${match.id}/screenshot`}
                    alt={`Screenshot of claim ${match.id}`}
                    loading="lazy"
                  />
                  <figcaption>Claim {match.id}</figcaption>
                </figure>
              </div>
              {review.data?.mayDecide ? (
                <div className="action-row">
                  <button
                    type="button"
                    className="secondary"
                    disabled={sending !== undefined}
                    onClick={() => void decide(match, 'not_duplicate')}
                  >
                    Not a duplicate
                  </button>
                  {review.data.duplicateMove?.allowed ? (
                    <button
                      type="button"
                      className="primary"
                      disabled={sending !== undefined}
                      onClick={() => void decide(match, 'duplicate')}
                    >
                      Duplicate: move to {review.data.duplicateMove.label}
                    </button>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {review.data?.duplicateMove && !review.data.duplicateMove.allowed ? (
        <p className="hint">
          &ldquo;Duplicate&rdquo; moves a claim to {review.data.duplicateMove.label}, which a claim in{' '}
          {review.data.statusLabels[review.data.status] ?? review.data.status} cannot: move it on first.
        </p>
      ) : null}
      {matches.data?.length === 0 ? <p>No other claim is flagged with this one now.</p> : null}
      {outcome ? (
        <p
          className={outcome.kind === 'refused' ? 'alert' : 'move-outcome'}
          role={outcome.kind === 'refused' ? 'alert' : 'status'}
        >
          {outcome.message}
        </p>
      ) : null}
    </section>
  )
}
