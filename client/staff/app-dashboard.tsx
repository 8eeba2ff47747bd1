import { Link, useNavigate } from '../routing/router.tsx'
import { canDecideApp, canExportApp, matchCountText, type StaffAccountView } from '../../src/api/staff.ts'
import { useEffect, useId, useRef, useState } from 'react'
import type { FormConfig } from '../../src/form-config.ts'
import { Loading } from '../ui/loading.tsx'
import { DailyChart } from './daily-chart.tsx'
import { Pagination } from './pagination.tsx'
import { appCsvUrl, fetchAppStats, fetchAppSubmissions, fetchAssignees, type ListOrder } from './staff-api.ts'
import { AssigneeField } from './assignee-field.tsx'
import { BulkMovePanel } from './bulk-move-panel.tsx'
import { useClaimKeys } from './use-claim-keys.ts'
import { ClaimFilterSelects, filterParams, linkedFilters, type ClaimFilterValues } from './claim-filters.tsx'
import { ClaimReviewPanel } from './claim-review-panel.tsx'
import { DuplicateScreenshots } from './duplicate-screenshots.tsx'
import { StatCards } from './stat-cards.tsx'
import { DetailsProblem, SubmissionDetails } from './submission-details.tsx'
import { SubmissionsTable } from './submissions-table.tsx'
import { localIsoDate, useCsvDownload } from './use-csv-download.ts'
import { useDebouncedValue } from './use-debounced-value.ts'
import type { StaffSession } from './use-staff-session.ts'
import { StaffUserBar } from './staff-user-bar.tsx'
import { useStaffResource } from './use-staff-resource.ts'
import { SearchRow } from './search-row.tsx'
import { useClaimDetails } from './use-claim-details.ts'
import { CsvButton } from './csv-button.tsx'

const SEARCH_DELAY_MS = 250

/**
 * /{app}-admin once signed in: stats, chart, server-side search and filters, the list (j/k to step
 * through it), details with the review and assignee, and CSV export.
 */
export function AppDashboard({
  config,
  session,
}: {
  config: FormConfig
  session: StaffSession & { account: StaffAccountView }
}) {
  const { slug, displayName } = config
  const canExport = canExportApp(session.account, slug)
  const canDecide = canDecideApp(session.account, slug)
  const navigate = useNavigate()
  const listId = useId()
  const [term, setTerm] = useState('')
  const query = useDebouncedValue(term.trim(), SEARCH_DELAY_MS)
  // a batch's "Show this batch's claims" link (/{app}-admin?batch=3) opens the dashboard filtered by it
  const [filterValues, setFilterValues] = useState<ClaimFilterValues>(() =>
    linkedFilters(new URLSearchParams(window.location.search)),
  )
  // the typed filters, as the search, are sent once the typing pauses
  const [typedBatch = '', typedCase = ''] = useDebouncedValue(
    `${filterValues.batch ?? ''}\n${filterValues.case ?? ''}`,
    SEARCH_DELAY_MS,
  ).split('\n')
  const filters = filterParams({ ...filterValues, batch: typedBatch, case: typedCase.trim() })
  const [flagged, setFlagged] = useState(false)
  const [order, setOrder] = useState<ListOrder>('newest')
  // the page belongs to the search, filters and order it was chosen for: new ones start again at page 1
  const listKey = JSON.stringify([query, filters, flagged, order])
  const [paging, setPaging] = useState({ listKey, page: 1 })
  const page = paging.listKey === listKey ? paging.page : 1
  const [reloadCount, setReloadCount] = useState(0)
  // a duplicate decision can move the claim: its review panel loads again
  const [duplicateDecisions, setDuplicateDecisions] = useState(0)
  // the rows checked for a bulk move belong to the search and filters they were checked in
  const [checks, setChecks] = useState({ listKey, ids: new Set<number>() })
  const checkedIds = checks.listKey === listKey ? checks.ids : new Set<number>()
  const changeChecks = (ids: number[], isChecked: boolean) => {
    const next = new Set(checkedIds)
    for (const id of ids) {
      if (isChecked) next.add(id)
      else next.delete(id)
    }
    setChecks({ listKey, ids: next })
  }
  const {
    details,
    open: openDetails,
    close: closeDetails,
  } = useClaimDetails({
    app: slug,
    onUnauthorized: session.expired,
  })
  const detailsRef = useRef<HTMLElement>(null)
  const tableRef = useRef<HTMLDivElement>(null)
  const [shouldFocusDetails, setShouldFocusDetails] = useState(false)

  useEffect(() => {
    document.title = `${displayName} Admin Dashboard`
  }, [displayName])
  const openClaim = (id: number) => {
    openDetails(id)
    setShouldFocusDetails(true)
  }
  // a claim's address (/{app}-admin/claims/123) or a link from another app's flagged claim or the
  // audit log (/{app}-admin?claim=123) opens its details
  useEffect(() => {
    const linked =
      /^\/[^/]+-admin\/claims\/(\d{1,15})$/.exec(window.location.pathname)?.[1] ??
      new URLSearchParams(window.location.search).get('claim')
    if (linked && /^\d{1,15}$/.test(linked)) openClaim(Number(linked))
    // once, when the dashboard opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  // the open claim's address is in the address bar, to share with a colleague (the page is gated as
  // the dashboard is); closing it goes back to the dashboard's
  const openId = details.status === 'closed' ? undefined : details.id
  useEffect(() => {
    const address = openId === undefined ? `/${slug}-admin` : `/${slug}-admin/claims/${openId}`
    if (window.location.pathname !== address || window.location.search !== '')
      navigate(address, { replace: true })
  }, [openId, slug, navigate])
  const hasAnswer = details.status === 'ready' || details.status === 'failed'
  useEffect(() => {
    if (!shouldFocusDetails || !hasAnswer) return
    const panel = detailsRef.current
    // beside the list (sticky) the panel is already in view: scrolling to it would move the list
    const isBeside = panel !== null && getComputedStyle(panel).position === 'sticky'
    panel?.focus({ preventScroll: isBeside })
    if (!isBeside) panel?.scrollIntoView({ block: 'start' })
    setShouldFocusDetails(false)
  }, [shouldFocusDetails, hasAnswer])

  const list = useStaffResource({
    key: JSON.stringify([slug, listKey, page, reloadCount]),
    load: (signal) => fetchAppSubmissions({ slug, query, filters, flagged, order, page, signal }),
    onUnauthorized: session.expired,
  })
  const stats = useStaffResource({
    key: JSON.stringify([slug, reloadCount]),
    load: (signal) => fetchAppStats({ slug, signal }),
    onUnauthorized: session.expired,
  })
  const assignees = useStaffResource({
    key: JSON.stringify([slug, reloadCount]),
    load: (signal) => fetchAssignees({ slug, signal }),
    onUnauthorized: session.expired,
  })
  const csv = useCsvDownload({
    failureMessage: 'Error downloading CSV file',
    onUnauthorized: session.expired,
  })

  const result = list.data
  const statusLabels = Object.fromEntries(
    (stats.data?.statuses ?? []).map(({ status, label }) => [status, label]),
  )
  const onTableKeyDown = useClaimKeys({
    ids: result?.data.map((submission) => submission.id) ?? [],
    currentId: details.status === 'closed' ? undefined : details.id,
    onOpen: (id, key) => {
      if (key === 'letter') {
        openClaim(id)
        return
      }
      // the arrows keep the focus in the table, on the claim opened
      openDetails(id)
      tableRef.current?.querySelector<HTMLElement>(`tr[data-claim-id="${id}"] button`)?.focus()
    },
  })
  const isSearching = query !== '' || Object.keys(filters).length > 0
  return (
    <article className="card staff-dashboard">
      <header className="card-header staff-header">
        <div>
          <h1>{displayName} Admin Dashboard</h1>
          <p>Manage {displayName} submissions and view screenshots</p>
          <nav aria-label={`${displayName} pages`} className="staff-user-links app-links">
            <Link to={`/${slug}-admin/filing`}>Filing settings</Link>
            <Link to={`/${slug}-admin/batches`}>Notices and filing</Link>
          </nav>
        </div>
        <StaffUserBar session={session} />
      </header>
      <div className="card-body">
        <div className="staff-toolbar">
          <SearchRow term={term} onTerm={setTerm} />
          <ClaimFilterSelects
            values={filterValues}
            onChange={setFilterValues}
            stats={stats.data}
            assignees={assignees.data ?? []}
          />
          <div className="action-row">
            {canExport ? (
              <CsvButton
                csv={csv}
                url={appCsvUrl(slug, query, { filters, flagged })}
                fallbackName={`${slug}-submissions-${localIsoDate()}.csv`}
              />
            ) : null}
            <button type="button" className="secondary" onClick={() => setReloadCount((count) => count + 1)}>
              Refresh
            </button>
            {list.status === 'loading' && result ? (
              <span className="inline-spinner" role="status">
                <span className="spinner" aria-hidden="true" />
                Loading...
              </span>
            ) : null}
          </div>
        </div>
        <p className="search-results" role="status">
          {(isSearching || flagged) && result && list.status === 'ready'
            ? `${isSearching ? 'Search results' : 'Flagged'}: ${matchCountText(result)} of ${result.total.toLocaleString('en-US')} submissions`
            : ''}
        </p>

        {stats.status === 'failed' ? (
          <p className="alert" role="alert">
            The figures could not be loaded: {stats.message}. Press Refresh to try again.
          </p>
        ) : (
          <>
            <StatCards stats={stats.data} />
            {stats.data ? <DailyChart daily={stats.data.daily} /> : null}
          </>
        )}

        {/* from a laptop's width up, the open claim sits beside the list (styles.css), so a reviewer
            keeps their place in the list while reading it */}
        <div className={`review-workspace${details.status === 'closed' ? '' : ' with-details'}`}>
          {details.status === 'loading' ? (
            <p className="inline-spinner" role="status">
              <span className="spinner" aria-hidden="true" />
              Opening the claim&apos;s details...
            </p>
          ) : details.status === 'failed' ? (
            <DetailsProblem
              ref={detailsRef}
              message={details.message}
              onRetry={() => openClaim(details.id)}
              onClose={closeDetails}
            />
          ) : details.status === 'ready' ? (
            <SubmissionDetails
              ref={detailsRef}
              submission={details.data}
              canExport={canExport}
              onClose={closeDetails}
              onUnauthorized={session.expired}
            >
              <AssigneeField
                key={details.data.id}
                claimId={details.data.id}
                assignee={details.data.assignee}
                assignees={assignees.data ?? []}
                onAssigned={() => setReloadCount((count) => count + 1)}
                onUnauthorized={session.expired}
              />
              <ClaimReviewPanel
                key={`${details.data.id}:${duplicateDecisions}`}
                claimId={details.data.id}
                onMoved={() => setReloadCount((count) => count + 1)}
                onUnauthorized={session.expired}
              />
              {details.data.duplicateOf.length > 0 ? (
                <DuplicateScreenshots
                  submission={details.data}
                  app={slug}
                  onOpenClaim={openClaim}
                  onDecided={() => {
                    setDuplicateDecisions((count) => count + 1)
                    setReloadCount((count) => count + 1)
                  }}
                  onUnauthorized={session.expired}
                />
              ) : null}
            </SubmissionDetails>
          ) : null}

          <section className="staff-panel" aria-labelledby={`${listId}-list`}>
            <div className="list-heading">
              <h2 id={`${listId}-list`}>All Submissions</h2>
              <label className="filter-toggle">
                <input
                  type="checkbox"
                  checked={flagged}
                  onChange={(event) => setFlagged(event.target.checked)}
                />
                Flagged only
              </label>
              <label className="filter-toggle">
                <input
                  type="checkbox"
                  checked={filterValues.assignee === 'me'}
                  onChange={(event) =>
                    setFilterValues({ ...filterValues, assignee: event.target.checked ? 'me' : '' })
                  }
                />
                Assigned to me
              </label>
            </div>
            <p className="hint">
              Keys: <kbd>j</kbd> and <kbd>k</kbd> open the next and previous claim; in the table, <kbd>↓</kbd>{' '}
              and <kbd>↑</kbd> do too.
            </p>
            {list.status === 'failed' ? (
              <div className="empty-state" role="alert">
                <p className="empty-title">No submissions found in database</p>
                <p className="hint">
                  The list could not be loaded ({list.message}). Check the server logs, then press Refresh.
                </p>
              </div>
            ) : !result ? (
              <Loading label="Loading submissions..." />
            ) : result.data.length === 0 ? (
              <EmptyList
                query={query}
                isFiltered={Object.keys(filters).length > 0}
                flagged={flagged}
                total={result.total}
              />
            ) : (
              <>
                <SubmissionsTable
                  ref={tableRef}
                  statusLabels={statusLabels}
                  onKeyDown={onTableKeyDown}
                  columns={config.dashboard.columns}
                  submissions={result.data}
                  selectedId={details.status === 'closed' ? undefined : details.id}
                  onSelect={(submission) => openClaim(submission.id)}
                  order={order}
                  onOrder={setOrder}
                  checks={canDecide ? { checked: checkedIds, onChange: changeChecks } : undefined}
                />
                <Pagination
                  page={result.page}
                  pageSize={result.pageSize}
                  count={result.count}
                  isCountCapped={result.isCountCapped}
                  onPage={(next) => setPaging({ listKey, page: next })}
                />
              </>
            )}
          </section>
        </div>
        {canDecide ? (
          <BulkMovePanel
            slug={slug}
            checkedIds={[...checkedIds]}
            filter={{
              ...(query === '' ? {} : { q: query }),
              ...filters,
              ...(flagged ? { flagged: '1' } : {}),
            }}
            filterCount={list.status === 'ready' && result ? matchCountText(result) : undefined}
            onMoved={() => {
              setChecks({ listKey, ids: new Set() })
              setReloadCount((count) => count + 1)
            }}
            onUnauthorized={session.expired}
          />
        ) : null}
      </div>
    </article>
  )
}

function EmptyList({
  query,
  isFiltered,
  flagged,
  total,
}: {
  query: string
  isFiltered: boolean
  flagged: boolean
  total: number
}) {
  if (flagged) {
    return (
      <div className="empty-state">
        <p className="empty-title">
          No flagged submissions{query !== '' ? ` match "${query}"` : isFiltered ? ' match the filter' : ''}
        </p>
        <p className="hint">
          A claim is flagged when another claimant sent the same screenshot. Total submissions: {total}
        </p>
      </div>
    )
  }
  if (query === '' && isFiltered) {
    return (
      <div className="empty-state">
        <p className="empty-title">No submissions match the filter</p>
        <p className="hint">Choose All to see every submission. Total submissions: {total}</p>
      </div>
    )
  }
  if (query !== '') {
    return (
      <div className="empty-state">
        <p className="empty-title">No submissions match &quot;{query}&quot;</p>
        <p className="hint">Try searching by email, phone number, or name. Total submissions: {total}</p>
      </div>
    )
  }
  return (
    <div className="empty-state">
      <p className="empty-title">No submissions found in database</p>
      <p className="hint">If you expected submissions here, check the server logs.</p>
    </div>
  )
}
