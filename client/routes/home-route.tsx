import { lazy, Suspense, useEffect, useState } from 'react'
import { Link, useSearchParams } from 'react-router-dom'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { fetchFormSummaries, type FormSummary } from '../forms/api.ts'
import { Loading } from '../ui/loading.tsx'

// staff pages are their own chunk: claimants never download them
const IntakeAdminView = lazy(async () => ({
  default: (await import('../staff/intake-admin-view.tsx')).IntakeAdminView,
}))

/** '/', or with ?key=… the staff view of all main-form submissions. */
export function HomeRoute() {
  const [searchParams] = useSearchParams()
  // the key only picks the screen: its value is never checked or sent; the server's login decides access
  if (searchParams.has('key')) {
    return (
      <Suspense fallback={<Loading />}>
        <IntakeAdminView />
      </Suspense>
    )
  }
  return <StepTwoList />
}

/** Until the main intake form lands, the home page lists the Step 2 forms. */
function StepTwoList() {
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
