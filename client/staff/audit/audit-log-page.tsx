import { useEffect, useId, useState } from 'react'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { Loading } from '../../ui/loading.tsx'
import { FIRM_ZONE_NAME } from '../shared/format.ts'
import { Pagination } from '../shared/pagination.tsx'
import { localIsoDate, useCsvDownload } from '../shared/use-csv-download.ts'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { auditCsvUrl, fetchAuditPage, type AuditFilterParams, type AuditPage } from './audit-api.ts'
import { actionLabel } from './audit-labels.ts'
import { AuditTable } from './audit-table.tsx'
import { CsvButton } from '../shared/csv-button.tsx'
import { StaffHeader } from '../sign-in/staff-header.tsx'

const TITLE = 'Audit Log'

/** The audit log for admins: filters by person, app, action and the firm's days, the entries, and the CSV. */
export function AuditLogPage({ session }: { session: StaffSession }) {
  const id = useId()
  const [filters, setFilters] = useState<AuditFilterParams>({})
  // the page belongs to the filters it was chosen for: new ones start again at page 1
  const listKey = JSON.stringify(filters)
  const [paging, setPaging] = useState({ listKey, page: 1 })
  const page = paging.listKey === listKey ? paging.page : 1
  const [reloadCount, setReloadCount] = useState(0)
  useEffect(() => {
    document.title = TITLE
  }, [])

  // the selects keep their choices while the next page loads, and after a refused filter
  const [choices, setChoices] = useState<Pick<AuditPage, 'people' | 'apps' | 'actions'>>()
  const log = useStaffResource({
    key: JSON.stringify([listKey, page, reloadCount]),
    load: async (signal) => {
      const answer = await fetchAuditPage({ filters, page, signal })
      setChoices({ people: answer.people, apps: answer.apps, actions: answer.actions })
      return answer
    },
    onUnauthorized: session.expired,
  })
  const csv = useCsvDownload({
    failureMessage: 'Error downloading CSV file',
    onUnauthorized: session.expired,
  })
  const data = log.data
  const appNames = new Map((choices?.apps ?? []).map(({ app, name }) => [app, name]))
  const set = (name: keyof AuditFilterParams) => (value: string) =>
    setFilters((current) => ({ ...current, [name]: value }))
  const isFiltered = Object.values(filters).some(Boolean)

  return (
    <article className="card audit-log">
      <StaffHeader
        title={TITLE}
        lead="Who signed in, viewed, exported or downloaded what on the staff pages"
        session={session}
      />
      <div className="card-body">
        <form className="audit-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
          <FilterSelect
            id={`${id}-person`}
            label="Person"
            value={filters.account ?? ''}
            onChange={set('account')}
            options={[
              { value: '', label: 'Everyone' },
              ...(choices?.people ?? []).map((person) => ({
                value: String(person.id),
                label: `${person.name} (${person.email})`,
              })),
            ]}
          />
          <FilterSelect
            id={`${id}-app`}
            label="App"
            value={filters.app ?? ''}
            onChange={set('app')}
            options={[
              { value: '', label: 'All apps' },
              ...(choices?.apps ?? []).map(({ app, name }) => ({ value: app, label: name })),
            ]}
          />
          <FilterSelect
            id={`${id}-action`}
            label="Action"
            value={filters.action ?? ''}
            onChange={set('action')}
            options={[
              { value: '', label: 'All actions' },
              ...(choices?.actions ?? []).map((action) => ({ value: action, label: actionLabel(action) })),
            ]}
          />
          <label className="filter-label" htmlFor={`${id}-from`}>
            From
            <input
              id={`${id}-from`}
              className="form-control"
              type="date"
              value={filters.from ?? ''}
              aria-describedby={`${id}-zone`}
              onChange={(event) => set('from')(event.target.value)}
            />
          </label>
          <label className="filter-label" htmlFor={`${id}-to`}>
            To
            <input
              id={`${id}-to`}
              className="form-control"
              type="date"
              value={filters.to ?? ''}
              aria-describedby={`${id}-zone`}
              onChange={(event) => set('to')(event.target.value)}
            />
          </label>
          <p id={`${id}-zone`} className="hint audit-utc">
            Dates and times are {FIRM_ZONE_NAME} time ({FIRM_SETTINGS.timeZone}); both dates are included.
          </p>
        </form>
        <div className="action-row">
          <CsvButton csv={csv} url={auditCsvUrl(filters)} fallbackName={`audit-log-${localIsoDate()}.csv`} />
          <button type="button" className="secondary" disabled={!isFiltered} onClick={() => setFilters({})}>
            Clear filters
          </button>
          <button type="button" className="secondary" onClick={() => setReloadCount((count) => count + 1)}>
            Refresh
          </button>
        </div>
        <p className="search-results" role="status">
          {data && log.status === 'ready'
            ? `${data.count.toLocaleString('en-US')} ${data.count === 1 ? 'entry' : 'entries'}${isFiltered ? ' match the filters' : ''}`
            : ''}
        </p>

        <section className="staff-panel" aria-labelledby={`${id}-entries`}>
          <h2 id={`${id}-entries`}>Entries, newest first</h2>
          {log.status === 'failed' ? (
            <p className="alert" role="alert">
              The audit log could not be loaded: {log.message}. Change the filters or press Refresh.
            </p>
          ) : !data ? (
            <Loading label="Loading the audit log..." />
          ) : data.entries.length === 0 ? (
            <div className="empty-state">
              <p className="empty-title">
                {isFiltered ? 'No entries match the filters' : 'The audit log is empty'}
              </p>
              {isFiltered ? <p className="hint">Press Clear filters to see every entry.</p> : null}
            </div>
          ) : (
            <>
              <AuditTable entries={data.entries} appNames={appNames} />
              <Pagination
                page={data.page}
                pageSize={data.pageSize}
                count={data.count}
                onPage={(next) => setPaging({ listKey, page: next })}
              />
            </>
          )}
        </section>
      </div>
    </article>
  )
}

function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string
  label: string
  value: string
  onChange: (value: string) => void
  options: { value: string; label: string }[]
}) {
  return (
    <label className="filter-label" htmlFor={id}>
      {label}
      <select
        id={id}
        className="form-control"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  )
}
