import { useEffect, useState } from 'react'
import { fetchMilitaryStats } from '../intake/api.ts'
import { StaffArea } from '../staff/staff-area.tsx'
import type { StaffSession } from '../staff/use-staff-session.ts'
import { useStaffResource } from '../staff/use-staff-resource.ts'
import { StaffUserBar } from '../staff/staff-user-bar.tsx'
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
      <header className="card-header staff-header">
        <div>
          <h1>{TITLE}</h1>
          <p>Main form submissions from active members of the military</p>
        </div>
        <StaffUserBar session={session} />
      </header>
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
