import { useEffect, useState } from 'react'
import { Link } from 'react-router-dom'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { fetchFormSummaries, type FormSummary } from '../forms/api.ts'

/** Until the main intake form lands, the home page lists the Step 2 forms. */
export function HomeRoute() {
  const [forms, setForms] = useState<FormSummary[]>([])
  useEffect(() => {
    document.title = 'Cash Advance App Claims'
    fetchFormSummaries().then(setForms, () => setForms([]))
  }, [])
  return (
    <section className="card">
      <header className="card-header">
        <h1>Cash Advance App Claims</h1>
        <p>
          You may be entitled to up to ${FIRM_SETTINGS.maxRecoveryPerAppUsd} per app used. Proof of use is
          required.
        </p>
      </header>
      <div className="card-body">
        <p>
          <Link to="/view-agreement">View My Agreement</Link>
        </p>
        <h2>Step 2 claim forms</h2>
        <ul className="app-list">
          {forms
            .filter((form) => form.state === 'open')
            .map((form) => (
              <li key={form.slug}>
                <Link to={`/${form.slug}`}>{form.displayName}</Link>
              </li>
            ))}
        </ul>
      </div>
    </section>
  )
}
