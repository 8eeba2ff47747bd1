import { useEffect, useId, useState } from 'react'
import { claimsPerIntake, conversion, type Funnel, type FunnelRow } from '../../../src/api/funnel.ts'
import { fetchJson } from '../../http.ts'
import { Loading } from '../../ui/loading.tsx'
import { TableRegion } from '../shared/table-region.tsx'
import { useCsvDownload } from '../shared/use-csv-download.ts'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { CsvButton } from '../shared/csv-button.tsx'
import { DAY_MS } from '../../../src/durations.ts'
import { StaffHeader } from '../sign-in/staff-header.tsx'

const TITLE = 'Funnel'
/** The steps as the chart and the table name them, each with its count in a row. */
const STEPS: { label: string; count: (row: FunnelRow) => number }[] = [
  { label: 'Intakes', count: (row) => row.intakes },
  { label: 'Step 2 claims', count: (row) => row.claims },
  { label: 'Confirmed', count: (row) => row.confirmed },
  { label: 'Approved', count: (row) => row.approved },
]

/** The funnel by campaign source over a range of UTC days: a chart, the table with its conversions, the CSV. */
export function FunnelPage({ session }: { session: StaffSession }) {
  const id = useId()
  const today = new Date().toISOString().slice(0, 10)
  const [range, setRange] = useState({
    from: new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10),
    to: today,
  })
  useEffect(() => {
    document.title = TITLE
  }, [])
  const query = new URLSearchParams(range).toString()
  const funnel = useStaffResource({
    key: query,
    load: (signal) => fetchJson<Funnel>(`/api/staff/funnel?${query}`, { signal, cache: 'no-store' }),
    onUnauthorized: session.expired,
  })
  const csv = useCsvDownload({
    failureMessage: 'Error downloading CSV file',
    onUnauthorized: session.expired,
  })
  const data = funnel.data
  return (
    <article className="card funnel-page">
      <StaffHeader
        title={TITLE}
        lead="Where the claims come from: each campaign source from intake to approved claim, and its claims held for fraud"
        session={session}
      />
      <div className="card-body">
        <form className="audit-filters" aria-label="Days" onSubmit={(event) => event.preventDefault()}>
          {(['from', 'to'] as const).map((name) => (
            <label key={name} className="filter-label" htmlFor={`${id}-${name}`}>
              {name === 'from' ? 'From' : 'To'}
              <input
                id={`${id}-${name}`}
                className="form-control"
                type="date"
                value={range[name]}
                max={today}
                aria-describedby={`${id}-utc`}
                onChange={(event) => {
                  const value = event.target.value
                  if (value) setRange((current) => ({ ...current, [name]: value }))
                }}
              />
            </label>
          ))}
          <p id={`${id}-utc`} className="hint audit-utc">
            Days are UTC; both are included. A claimant who came without a campaign source counts under
            “(none)”. The fraud rate is the claims held (at or below their app’s hold score, not cleared) of
            those scored.
          </p>
        </form>
        <div className="action-row">
          <CsvButton
            csv={csv}
            url={`/api/staff/funnel/export.csv?${query}`}
            fallbackName={`funnel-${range.from}-to-${range.to}.csv`}
          />
        </div>
        {funnel.status === 'failed' ? (
          <p role="alert" className="error-message">
            {funnel.message}
          </p>
        ) : !data ? (
          <Loading label="Loading the funnel..." />
        ) : data.sources.length === 0 ? (
          <p>No intake or claim came in on these days.</p>
        ) : (
          <>
            <FunnelChart funnel={data} />
            <FunnelTable funnel={data} />
          </>
        )}
      </div>
    </article>
  )
}

/** Each source's steps as bars on one scale (the largest count of any step): the table below holds the figures. */
function FunnelChart({ funnel }: { funnel: Funnel }) {
  const largest = Math.max(1, ...funnel.sources.flatMap((row) => STEPS.map((step) => step.count(row))))
  return (
    <section aria-labelledby="funnel-chart-heading" className="funnel-chart">
      <h2 id="funnel-chart-heading">By source</h2>
      <ul className="funnel-sources">
        {funnel.sources.map((row) => (
          <li key={row.source}>
            <h3>{row.source}</h3>
            <dl className="funnel-bars">
              {STEPS.map((step) => (
                <div key={step.label} className="funnel-bar-row">
                  <dt>{step.label}</dt>
                  <dd>
                    <span
                      className="funnel-bar"
                      style={{ width: `${(step.count(row) / largest) * 100}%` }}
                      aria-hidden="true"
                    />
                    <span className="funnel-count">{step.count(row).toLocaleString('en-US')}</span>
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </section>
  )
}

function FunnelTable({ funnel }: { funnel: Funnel }) {
  const line = (row: FunnelRow, isTotal = false) => (
    <tr key={row.source} className={isTotal ? 'funnel-total' : undefined}>
      <th scope="row">{row.source}</th>
      <td>{row.intakes.toLocaleString('en-US')}</td>
      <td>
        {row.claims.toLocaleString('en-US')}
        <span className="batch-by">
          {funnel.apps
            .filter((app) => row.claimsByApp[app.slug])
            .map((app) => `${app.name} ${row.claimsByApp[app.slug]!.toLocaleString('en-US')}`)
            .join(', ')}
        </span>
      </td>
      <td>{claimsPerIntake(row.claims, row.intakes)}</td>
      <td>{row.confirmed.toLocaleString('en-US')}</td>
      <td>{conversion(row.confirmed, row.claims)}</td>
      <td>{row.approved.toLocaleString('en-US')}</td>
      <td>{conversion(row.approved, row.claims)}</td>
      <td>
        {row.held.toLocaleString('en-US')}
        <span className="batch-by">of {row.scored.toLocaleString('en-US')} scored</span>
      </td>
      <td>{conversion(row.held, row.scored)}</td>
    </tr>
  )
  return (
    <section aria-labelledby="funnel-table-heading">
      <h2 id="funnel-table-heading">Steps and conversions</h2>
      <TableRegion
        label="Funnel table"
        headings={[
          'Source',
          'Intakes',
          'Step 2 claims',
          'Claims per intake',
          'Confirmed',
          'Confirmed of claims',
          'Approved',
          'Approved of claims',
          'Held for fraud',
          'Fraud rate',
        ]}
      >
        {funnel.sources.map((row) => line(row))}
        {line(funnel.total, true)}
      </TableRegion>
    </section>
  )
}
