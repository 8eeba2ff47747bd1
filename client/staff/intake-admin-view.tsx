import { useEffect, useId, useState } from 'react'
import { Loading } from '../ui/loading.tsx'
import { formatDate, fullName } from './format.ts'
import { Pagination } from './pagination.tsx'
import { fetchIntakeSubmissions, INTAKE_CSV_URL } from './staff-api.ts'
import { StaffArea } from './staff-area.tsx'
import { useCsvDownload } from './use-csv-download.ts'
import type { StaffSession } from './use-staff-session.ts'
import { StaffUserBar } from './staff-user-bar.tsx'
import { useStaffResource } from './use-staff-resource.ts'

const COLUMNS = ['Name', 'Email', 'Phone', 'Apps Used', 'Signature', 'Date']

/** The main page's admin mode: the gate, then every main-form submission, newest first. */
export function IntakeAdminView() {
  return (
    <StaffArea gateTitle="Admin Access" allows={(account) => account.role === 'admin'}>
      {(session) => <IntakeSubmissionsView session={session} />}
    </StaffArea>
  )
}

function IntakeSubmissionsView({ session }: { session: StaffSession }) {
  const headingId = useId()
  const [page, setPage] = useState(1)
  useEffect(() => {
    document.title = 'All Submissions'
  }, [])
  const list = useStaffResource({
    key: String(page),
    load: (signal) => fetchIntakeSubmissions({ page, signal }),
    onUnauthorized: session.expired,
  })
  const csv = useCsvDownload({
    failureMessage: 'Failed to download app submissions view. Please try again.',
    onUnauthorized: session.expired,
  })
  const result = list.data

  return (
    <article className="card staff-dashboard">
      <header className="card-header staff-header">
        <div>
          <h1 id={headingId}>All Submissions</h1>
          <p>
            Main form submissions, newest first{result ? ` (${result.total.toLocaleString('en-US')})` : ''}
          </p>
        </div>
        <StaffUserBar session={session} />
      </header>
      <div className="card-body">
        <div className="action-row">
          <button
            type="button"
            className="primary"
            disabled={csv.isDownloading}
            onClick={() =>
              void csv.download({ url: INTAKE_CSV_URL, fallbackName: 'app-submissions-view.csv' })
            }
          >
            {csv.isDownloading ? 'Downloading...' : 'Download App Submissions View (CSV)'}
          </button>
        </div>
        {list.status === 'failed' ? (
          <p className="alert" role="alert">
            The submissions could not be loaded ({list.message}). Please reload the page in a moment.
          </p>
        ) : !result ? (
          <Loading label="Loading submissions..." />
        ) : (
          <>
            <div className="table-scroll" role="region" aria-labelledby={headingId} tabIndex={0}>
              <table className="staff-table">
                <thead>
                  <tr>
                    {COLUMNS.map((label) => (
                      <th key={label} scope="col">
                        {label}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {result.data.length === 0 ? (
                    <tr>
                      <td colSpan={COLUMNS.length} className="empty-row">
                        No submissions found in database
                      </td>
                    </tr>
                  ) : null}
                  {result.data.map((submission) => (
                    <tr key={submission.id}>
                      <td>{fullName(submission)}</td>
                      <td>{submission.email}</td>
                      <td>{submission.phone}</td>
                      <td>
                        {Array.isArray(submission.cashAdvanceApps)
                          ? submission.cashAdvanceApps.join(', ')
                          : ''}
                      </td>
                      <td>
                        {submission.signature ? (
                          <img className="signature-thumb" src={submission.signature} alt="Signature" />
                        ) : null}
                      </td>
                      <td>{formatDate(submission.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <Pagination page={result.page} pageSize={result.pageSize} count={result.count} onPage={setPage} />
          </>
        )}
      </div>
    </article>
  )
}
