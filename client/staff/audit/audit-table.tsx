import { Link } from '../../routing/router.tsx'
import { intakeHref } from '../intakes/intake-address.ts'
import type { AuditEntryView } from './audit-api.ts'
import { FIRM_ZONE_NAME, formatAuditTime } from '../shared/format.ts'
import { actionLabel } from './audit-labels.ts'

/** The audit log's entries: who did what, when, in which app, and from where. */
export function AuditTable({
  entries,
  appNames,
}: {
  entries: AuditEntryView[]
  appNames: ReadonlyMap<string, string>
}) {
  return (
    <div className="table-scroll" role="region" aria-label="Audit log table" tabIndex={0}>
      <table className="staff-table audit-table">
        <thead>
          <tr>
            <th scope="col">Time ({FIRM_ZONE_NAME})</th>
            <th scope="col">Person</th>
            <th scope="col">Action</th>
            <th scope="col">App</th>
            <th scope="col">Detail</th>
            <th scope="col">Address</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{formatAuditTime(entry.at)}</td>
              <td>
                {entry.person}
                {entry.email && entry.email !== entry.person ? (
                  <span className="audit-email">{entry.email}</span>
                ) : null}
              </td>
              <td>{actionLabel(entry.action)}</td>
              <td>{entry.app === null ? '—' : (appNames.get(entry.app) ?? entry.app)}</td>
              <td>
                <AuditDetail detail={entry.detail} app={entry.app} />
              </td>
              <td>{entry.clientAddress}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/**
 * A detail that names a claim of an app ("claim 12: …") links to that claim's details on its dashboard;
 * one that names an intake ("intake 7"), to the intake's details in the main admin view.
 */
function AuditDetail({ detail, app }: { detail: string | null; app: string | null }) {
  if (detail === null) return <>—</>
  const intake = /^intake (\d+)$/.exec(detail)
  if (intake) return <Link to={intakeHref(Number(intake[1]))}>{detail}</Link>
  const claim = /^claim (\d+)\b/.exec(detail)
  if (!claim || app === null) return <>{detail}</>
  return (
    <>
      <Link to={`/${app}-admin?claim=${claim[1]}`}>claim {claim[1]}</Link>
      {detail.slice(claim[0].length)}
    </>
  )
}
