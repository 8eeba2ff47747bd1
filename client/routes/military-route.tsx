import { useEffect, useState } from 'react'
import { fetchMilitaryClaimants, fetchMilitaryStats } from '../intake/api.ts'
import { MILITARY_LIST_LIMIT } from '../../src/api/staff.ts'
import { formatDateTime } from '../staff/shared/format.ts'
import { StaffArea } from '../staff/sign-in/staff-area.tsx'
import type { StaffSession } from '../staff/sign-in/use-staff-session.ts'
import { useStaffResource } from '../staff/shared/use-staff-resource.ts'
import { StaffHeader } from '../staff/sign-in/staff-header.tsx'
import { Loading } from '../ui/loading.tsx'

const TITLE = 'Military Analysis'

/** /military-analysis: staff only; how many main-form claimants are active-duty military. */
export function MilitaryRoute() {
  return (
    <StaffArea gateTitle={TITLE} allows={(account) => account.role === 'admin'}>
      {(session) => <MilitaryAnalysis session={session} />}
    </StaffArea>
  )
}

function MilitaryAnalysis({ session }: { session: StaffSession }) {
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    document.title = TITLE
  }, [])
  const stats = useStaffResource({
    key: String(attempt),
    load: (signal) => fetchMilitaryStats({ signal }),
    onUnauthorized: session.expired,
  })

  return (
    <article className="card military-analysis">
      <StaffHeader
        title={TITLE}
        lead="Main form submissions from active members of the military"
        session={session}
      />
      <div className="card-body">
        {stats.status === 'failed' ? (
          <div className="alert military-error" role="alert">
            <p>The military data could not be loaded ({stats.message}).</p>
            <button type="button" className="secondary" onClick={() => setAttempt((count) => count + 1)}>
              Try again
            </button>
          </div>
        ) : !stats.data ? (
          <Loading label="Loading military data..." />
        ) : (
          <ul className="stat-cards" aria-label="Military figures">
            <li className="stat-card">
              <span className="stat-label">Active Military</span>
              <span className="stat-value">{stats.data.activeMilitary.toLocaleString('en-US')}</span>
            </li>
            <li className="stat-card">
              <span className="stat-label">Total Submissions</span>
              <span className="stat-value">{stats.data.total.toLocaleString('en-US')}</span>
            </li>
            <li className="stat-card">
              <span className="stat-label">Percentage</span>
              <span className="stat-value">{stats.data.percentage.toFixed(1)}%</span>
            </li>
          </ul>
        )}
        <MilitaryClaimantsTable session={session} />
        <aside className="mla-note" aria-label="Military Lending Act">
          <h2>Military Lending Act</h2>
          <p>
            Active-duty service members and their dependents have extra protections under the Military Lending
            Act, including a 36% cap on the Military Annual Percentage Rate and a ban on mandatory arbitration
            clauses in covered consumer credit. Review these claims with that in mind.
          </p>
        </aside>
      </div>
    </article>
  )
}

/** The active-military claimants themselves, newest first: their claims are reviewed with the MLA in mind. */
function MilitaryClaimantsTable({ session }: { session: StaffSession }) {
  const list = useStaffResource({
    key: 'claimants',
    load: (signal) => fetchMilitaryClaimants({ signal }),
    onUnauthorized: session.expired,
  })
  if (list.status === 'failed') {
    return (
      <p className="alert" role="alert">
        The list of claimants could not be loaded ({list.message}).
      </p>
    )
  }
  if (!list.data) return <Loading label="Loading the claimants..." />
  const { claimants, total } = list.data
  return (
    <section className="military-claimants" aria-labelledby="military-claimants-title">
      <h2 id="military-claimants-title">Active-military claimants</h2>
      <p>
        {total > claimants.length
          ? `The newest ${MILITARY_LIST_LIMIT.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}; All Submissions' CSV has every one.`
          : `${total.toLocaleString('en-US')} in all, newest first.`}
      </p>
      {claimants.length === 0 ? (
        <p>No claimant has said they are active military.</p>
      ) : (
        <div className="table-scroll">
          <table className="staff-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Phone</th>
                <th scope="col">State</th>
                <th scope="col">Date</th>
              </tr>
            </thead>
            <tbody>
              {claimants.map((claimant) => (
                <tr key={claimant.id}>
                  <td>{claimant.name}</td>
                  <td>{claimant.email}</td>
                  <td>{claimant.phone}</td>
                  <td>{claimant.state}</td>
                  <td>{formatDateTime(claimant.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
