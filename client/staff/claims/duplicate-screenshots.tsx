import { useState } from 'react'
import type { DuplicateScreenshot } from '../../../src/api/staff.ts'
import { DuplicateConfirmDialog } from './duplicate-confirm-dialog.tsx'
import {
  claimDashboardHref,
  decideDuplicate,
  fetchClaimReview,
  fetchDuplicateCluster,
  fetchDuplicateScreenshots,
  isUnauthorized,
  type StaffClaimRow,
} from '../shared/staff-api.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'

/**
 * A flagged claim's details: for each other claimant's claim with the same screenshot, surest first
 * (the same file, then the fewest bits apart) and named so, both screenshots side by side, a link that
 * opens that claim (in this dashboard when it is this app's, else in its own app's), and, for an account
 * with the decide right, the decision: "Not a duplicate" unflags the pair, "Not duplicates" every pair of
 * the claims connected by flags, and "Duplicate" makes the review config's move once a dialog naming the
 * claim is confirmed. Each is on the claim's record.
 */
export function DuplicateScreenshots({
  claim,
  app,
  onOpenClaim,
  onDecided,
  onUnauthorized,
}: {
  claim: StaffClaimRow
  app: string
  onOpenClaim: (id: number) => void
  /** A decision was made: the claim's flag, status and the list change with it. */
  onDecided: () => void
  onUnauthorized: () => void
}) {
  const [loads, setLoads] = useState(0)
  const matches = useStaffResource({
    key: JSON.stringify([claim.id, claim.duplicateOf, loads]),
    load: (signal) => fetchDuplicateScreenshots({ id: claim.id, signal }),
    onUnauthorized,
  })
  const review = useStaffResource({
    key: JSON.stringify([claim.id, loads]),
    load: (signal) => fetchClaimReview({ id: claim.id, signal }),
    onUnauthorized,
  })
  const cluster = useStaffResource({
    key: JSON.stringify([claim.id, claim.duplicateOf, loads]),
    load: (signal) => fetchDuplicateCluster({ id: claim.id, signal }),
    onUnauthorized,
  })
  const [outcome, setOutcome] = useState<{ kind: 'done' | 'refused'; message: string }>()
  const [sending, setSending] = useState<number | 'cluster'>()
  const [confirming, setConfirming] = useState<DuplicateScreenshot>()

  async function decide(match: DuplicateScreenshot | 'cluster', decision: 'duplicate' | 'not_duplicate') {
    if (!review.data) return
    setSending(match === 'cluster' ? match : match.id)
    try {
      const decided = await decideDuplicate({
        id: claim.id,
        decision:
          match === 'cluster'
            ? { decision: 'not_duplicate', cluster: true, version: review.data.version }
            : { decision, other: match.id, version: review.data.version },
      })
      setOutcome({
        kind: 'done',
        message:
          match === 'cluster'
            ? `Claims ${cluster.data?.claimIds.join(', ')} are not duplicates of each other: none is flagged for another of them now.`
            : decision === 'not_duplicate'
              ? `Claim ${claim.id} is not a duplicate of claim ${match.id}${decided.flagged ? '' : ': it is no longer flagged'}.`
              : `Claim ${claim.id} moved to ${review.data.duplicateMove?.label ?? decided.status} as a duplicate of claim ${match.id}.`,
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
    matches.data ??
    claim.duplicateOf.map((id) => ({ id, app, appName: '', kind: 'near' as const, distance: 0 }))
  const clusterIds = cluster.data?.claimIds ?? []
  return (
    <section className="duplicate-screenshots" aria-label="Flagged as a duplicate">
      <h3>Flagged: same screenshot as another claimant</h3>
      {clusterIds.length > 2 ? (
        <div className="duplicate-cluster">
          <p>
            Flagged with each other, directly or through another: claims {clusterIds.join(', ')} (
            {clusterIds.length} claims).
          </p>
          {review.data?.mayDecide && cluster.data?.isWhole ? (
            <button
              type="button"
              className="secondary"
              disabled={sending !== undefined}
              onClick={() => void decide('cluster', 'not_duplicate')}
            >
              Not duplicates: all {clusterIds.length} claims
            </button>
          ) : review.data?.mayDecide ? (
            <p className="hint">
              Some of these claims are in apps you cannot decide, or there are too many: decide the pairs one
              by one.
            </p>
          ) : null}
        </div>
      ) : null}
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
                {match.appName
                  ? match.kind === 'exact'
                    ? ': identical file'
                    : `: near copy, distance ${match.distance}`
                  : ''}
              </p>
              <div className="side-by-side">
                <figure>
                  <img src={claim.screenshotUrl} alt={`Screenshot of claim ${claim.id}`} loading="lazy" />
                  <figcaption>This claim ({claim.id})</figcaption>
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
                      onClick={() => setConfirming(match)}
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
      {confirming && review.data?.duplicateMove ? (
        <DuplicateConfirmDialog
          claimId={claim.id}
          otherId={confirming.id}
          moveLabel={review.data.duplicateMove.label}
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => {
            setConfirming(undefined)
            void decide(confirming, 'duplicate')
          }}
        />
      ) : null}
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
