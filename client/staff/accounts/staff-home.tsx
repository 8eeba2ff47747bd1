import { useEffect } from 'react'
import { Link } from '../../routing/router.tsx'
import { ResourceView } from '../shared/resource-view.tsx'
import { StaffArea } from '../sign-in/staff-area.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import type { AppCounts } from '../../../src/api/staff-home.ts'
import { fetchJson } from '../../http.ts'
import { TableRegion } from '../shared/table-region.tsx'
import './accounts.css'
import { StaffHeader } from '../sign-in/staff-header.tsx'

const TITLE = 'Staff home'

/** The admin pages; the main admin view opens on '/' with ?key (its value is never checked). */
const ADMIN_LINKS = [
  { to: '/?key=staff', label: 'All Submissions' },
  { to: '/military-analysis', label: 'Military Analysis' },
  { to: '/staff/accounts', label: 'Staff accounts' },
  { to: '/staff/audit', label: 'Audit log' },
  { to: '/staff/funnel', label: 'Funnel' },
  { to: '/staff/webhooks', label: 'Webhooks' },
]

/** Each dashboard the account may open, with its claims to review, deficient and ready to file. */
function fetchAppCounts(signal?: AbortSignal): Promise<AppCounts> {
  return fetchJson('/api/staff/app-counts', { signal, cache: 'no-store' })
}

/** /staff: the dashboards this account may open with their counts, and an admin's pages. */
export function StaffHome() {
  return <StaffArea gateTitle={TITLE}>{(session) => <StaffHomeView session={session} />}</StaffArea>
}

function StaffHomeView({ session }: { session: StaffSession }) {
  useEffect(() => {
    document.title = TITLE
  }, [])
  const apps = useStaffResource({ key: 'apps', load: fetchAppCounts, onUnauthorized: session.expired })
  const isAdmin = session.account?.role === 'admin'
  return (
    <article className="card staff-home">
      <StaffHeader title={TITLE} session={session} />
      <div className="card-body">
        <section aria-labelledby="your-dashboards">
          <h2 id="your-dashboards">Your dashboards</h2>
          <ResourceView
            resource={apps}
            loading="Loading your dashboards..."
            failed={(message) =>
              `Your dashboards could not be loaded (${message}). Reload the page to try again.`
            }
          >
            {(data) =>
              data.apps.length === 0 ? (
                <p>
                  Your account has no dashboard yet. Ask an admin of your firm to give you the apps you work
                  on.
                </p>
              ) : (
                <TableRegion
                  label="Dashboard counts"
                  headings={['Dashboard', 'To review', 'Deficient', 'Ready to file']}
                >
                  {data.apps.map((app) => (
                    <tr key={app.slug}>
                      <th scope="row">
                        <Link to={`/${app.slug}-admin`}>{app.name}</Link>
                      </th>
                      <td data-label="To review">{app.toReview.toLocaleString('en-US')}</td>
                      <td data-label="Deficient">{app.deficient.toLocaleString('en-US')}</td>
                      <td data-label="Ready to file">{app.readyToFile.toLocaleString('en-US')}</td>
                    </tr>
                  ))}
                </TableRegion>
              )
            }
          </ResourceView>
        </section>
        {isAdmin ? (
          <section aria-labelledby="admin-pages">
            <h2 id="admin-pages">Administration</h2>
            <ul className="link-list">
              {ADMIN_LINKS.map(({ to, label }) => (
                <li key={to}>
                  <Link to={to}>{label}</Link>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </article>
  )
}
