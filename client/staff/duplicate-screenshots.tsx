import { claimDashboardHref, fetchDuplicateScreenshots, type StaffSubmission } from './staff-api.ts'
import { useStaffResource } from './use-staff-resource.ts'

/**
 * A flagged claim's details: the other claimants' claims with the same screenshot, each a link that
 * opens that claim's details (in this dashboard when it is this app's, else in its own app's).
 */
export function DuplicateScreenshots({
  submission,
  app,
  onOpenClaim,
  onUnauthorized,
}: {
  submission: StaffSubmission
  app: string
  onOpenClaim: (id: number) => void
  onUnauthorized: () => void
}) {
  const matches = useStaffResource({
    key: JSON.stringify([submission.id, submission.duplicateOf]),
    load: (signal) => fetchDuplicateScreenshots({ id: submission.id, signal }),
    onUnauthorized,
  })
  return (
    <div className="duplicate-screenshots">
      <h3>Flagged: same screenshot as another claimant</h3>
      {matches.status === 'failed' ? (
        <p className="alert" role="alert">
          The matching claims could not be loaded: {matches.message}.
        </p>
      ) : (
        <ul>
          {(matches.data ?? submission.duplicateOf.map((id) => ({ id, app, appName: '', kind: 'near' }))).map(
            (match) => (
              <li key={match.id}>
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
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  )
}
