import { Link, useNavigate } from '../../routing/router.tsx'
import {
  canDecideApp,
  canExportApp,
  canPayApp,
  matchCountText,
  type StaffAccountView,
} from '../../../src/api/staff.ts'
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react'
import type { FormConfig } from '../../../src/form-config.ts'
import { DailyChart } from './daily-chart.tsx'
import { DetailsBeside, ListSection, ListToolbar, useListPage } from '../shared/list-view.tsx'
import { appCsvUrl, fetchAppStats, fetchAppClaims, fetchAssignees } from '../shared/staff-api.ts'
import { AssigneeField } from './assignee-field.tsx'
import { BulkMovePanel } from './bulk-move-panel.tsx'
import { useListKeys } from '../shared/use-list-keys.ts'
import { ClaimFilterSelects, filterParams, type ClaimFilterValues } from './claim-filters.tsx'
import { ClaimReviewPanel } from './claim-review-panel.tsx'
import { DuplicateScreenshots } from './duplicate-screenshots.tsx'
import { FraudScorePanel } from './fraud-score-panel.tsx'
import { StatCards, statsSummary } from './stat-cards.tsx'
import { ClaimDetails } from './claim-details.tsx'
import { ClaimsTable } from './claims-table.tsx'
import { localIsoDate, useCsvDownload } from '../shared/use-csv-download.ts'
import { useDebouncedValue } from '../shared/use-debounced-value.ts'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { StaffHeader } from '../sign-in/staff-header.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { useClaimDetails } from './use-claim-details.ts'
import { CsvButton } from '../shared/csv-button.tsx'
import { dashboardSearch, readDashboardView } from './dashboard-address.ts'
import { EmptyClaimList } from './empty-claim-list.tsx'
import { ShortcutSheet } from './shortcut-sheet.tsx'
import { useDashboardKeys } from './use-dashboard-keys.ts'

const SEARCH_DELAY_MS = 250

/** Wide enough for the filters beside each other (styles.css's .filters-fold uses the same). */
const WIDE_SCREEN = '(min-width: 48rem)'
/** The sticky panel's distance from the screen's top (styles.css: top 0.5rem). */
const PANEL_MARGIN_PX = 8

/**
 * Where the focus goes once an opened claim is shown: the panel, its decision (after a move), or
 * nowhere (the arrows keep it in the list).
 */
type FocusOnOpen = 'panel' | 'decision' | 'stay'

/**
 * /{app}-admin once signed in: the queue first (search, filters, the list with the open claim beside
 * it), the figures folded into one line, and CSV export. The search, filters, order and page live in
 * the address, so a reload, Back or a shared link opens the same list; the keys are in the `?` sheet.
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
  // the address the dashboard opened with: a reload, a shared link, a batch's "Show this batch's claims"
  const [initial] = useState(() => readDashboardView(window.location.search))
  const [term, setTerm] = useState(initial.term)
  const query = useDebouncedValue(term.trim(), SEARCH_DELAY_MS)
  const [filterValues, setFilterValues] = useState<ClaimFilterValues>(initial.filters)
  const activeFilters = Object.values(filterValues).filter(
    (value) => value !== undefined && value !== '',
  ).length
  const [filtersOpen, setFiltersOpen] = useState(
    () => activeFilters > 0 || window.matchMedia(WIDE_SCREEN).matches,
  )
  // the typed filters, as the search, are sent once the typing pauses
  const [typedBatch = '', typedCase = ''] = useDebouncedValue(
    `${filterValues.batch ?? ''}\n${filterValues.case ?? ''}`,
    SEARCH_DELAY_MS,
  ).split('\n')
  const sentFilters = { ...filterValues, batch: typedBatch, case: typedCase.trim() }
  const filters = filterParams(sentFilters)
  const [flagged, setFlagged] = useState(initial.flagged)
  const [order, setOrder] = useState(initial.order)
  // the page belongs to the search, filters and order it was chosen for: new ones start again at page 1
  const listKey = JSON.stringify([query, filters, flagged, order])
  const [page, setPage] = useListPage(listKey, initial.page)
  const [reloadCount, setReloadCount] = useState(0)
  // a duplicate decision can move the claim: its review panel loads again
  const [duplicateDecisions, setDuplicateDecisions] = useState(0)
  // the rows checked for a bulk move belong to the search and filters they were checked in
  const [checks, setChecks] = useState({ listKey, ids: new Set<number>() })
  const checkedIds = checks.listKey === listKey ? checks.ids : new Set<number>()
  /** To the bulk move's choices, focused on its first "Move to" option. */
  const goToBulkMove = () => {
    const panel = document.querySelector<HTMLElement>('.bulk-move')
    panel?.scrollIntoView({ block: 'start' })
    panel?.querySelectorAll<HTMLInputElement>('fieldset')[1]?.querySelector('input')?.focus()
  }
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
  const searchRef = useRef<HTMLInputElement>(null)
  const [focusOnOpen, setFocusOnOpen] = useState<FocusOnOpen>('stay')
  const [zoomedId, setZoomedId] = useState<number>()
  const [isSheetOpen, setIsSheetOpen] = useState(false)
  const [moveOutcome, setMoveOutcome] = useState('')

  useEffect(() => {
    document.title = `${displayName} Admin Dashboard`
  }, [displayName])
  // opening the first claim narrows the list beside it (and closing the last widens it), which moves
  // its rows: the row the reviewer acted on is held where it was on the screen
  const anchor = useRef<{ id: number; top: number }>(undefined)
  const holdRow = (id: number) => {
    const row = tableRef.current?.querySelector(`tr[data-claim-id="${id}"]`)
    anchor.current = row ? { id, top: row.getBoundingClientRect().top } : undefined
  }
  const isOpen = details.status !== 'closed'
  useLayoutEffect(() => {
    const held = anchor.current
    anchor.current = undefined
    const row = held && tableRef.current?.querySelector(`tr[data-claim-id="${held.id}"]`)
    if (held && row) window.scrollBy(0, row.getBoundingClientRect().top - held.top)
  }, [isOpen])
  const openClaim = (
    id: number,
    { focus = 'panel', zoom = false }: { focus?: FocusOnOpen; zoom?: boolean } = {},
  ) => {
    if (!isOpen) holdRow(id)
    openDetails(id)
    setFocusOnOpen(focus)
    setZoomedId(zoom ? id : undefined)
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
  // the open claim and the list's view are in the address bar, to reload or share with a colleague (the
  // page is gated as the dashboard is); replaced, so Back leaves the dashboard rather than undo a filter
  const openId = details.status === 'closed' ? undefined : details.id
  const search = dashboardSearch({ term: query, filters: sentFilters, flagged, order, page })
  useEffect(() => {
    const path = openId === undefined ? `/${slug}-admin` : `/${slug}-admin/claims/${openId}`
    if (window.location.pathname !== path || window.location.search !== search)
      navigate(`${path}${search}`, { replace: true })
  }, [openId, slug, search, navigate])
  const hasAnswer = details.status === 'ready' || details.status === 'failed'
  useEffect(() => {
    if (focusOnOpen === 'stay' || !hasAnswer) return
    // after a move the review panel focuses the next claim's decision itself (once its review is in)
    if (focusOnOpen === 'decision' && details.status === 'ready') return
    const panel = detailsRef.current
    setFocusOnOpen('stay')
    if (!panel) return
    panel.focus({ preventScroll: true })
    // beside the list (sticky) the panel is in view unless the list ends above the screen's bottom (the
    // panel stops with it): then the page moves only as far as it takes, not to the list's top
    if (getComputedStyle(panel).position !== 'sticky') {
      panel.scrollIntoView({ block: 'start' })
      return
    }
    const showWhole = () => {
      const { top } = panel.getBoundingClientRect()
      if (top < 0) window.scrollBy(0, top - PANEL_MARGIN_PX)
    }
    showWhole()
    // again once the list beside it has settled into its narrower columns
    requestAnimationFrame(showWhole)
  }, [focusOnOpen, hasAnswer, details.status])

  const list = useStaffResource({
    key: JSON.stringify([slug, listKey, page, reloadCount]),
    load: (signal) => fetchAppClaims({ slug, query, filters, flagged, order, page, signal }),
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
  const ids = result?.data.map((claim) => claim.id) ?? []
  const statusLabels = Object.fromEntries(
    (stats.data?.statuses ?? []).map(({ status, label }) => [status, label]),
  )
  const rowButton = (id: number) =>
    tableRef.current?.querySelector<HTMLElement>(`tr[data-claim-id="${id}"] button.view-details`)
  const onTableKeyDown = useListKeys({
    ids,
    currentId: openId,
    onOpen: (id, key) => {
      if (key === 'letter') {
        openClaim(id)
        return
      }
      // the arrows keep the focus in the table, on the claim opened
      openClaim(id, { focus: 'stay' })
      rowButton(id)?.focus()
    },
  })
  useDashboardKeys({
    onSearch: () => searchRef.current?.focus(),
    onHelp: () => setIsSheetOpen(true),
    onZoom: () => {
      if (details.status === 'ready') setZoomedId(zoomedId === details.id ? undefined : details.id)
    },
    onEscape: () => {
      if (openId === undefined) return
      holdRow(openId)
      closeDetails()
      // back to the claim's row, where the list was left
      rowButton(openId)?.focus({ preventScroll: true })
    },
  })
  // a move opens the list's next claim, its decision focused: the reviewer works down the list
  const onMoved = (movedId: number, message: string) => {
    const at = ids.indexOf(movedId)
    const next = at < 0 ? undefined : ids[at + 1]
    setMoveOutcome(next === undefined ? message : `${message} Next: claim ${next}.`)
    setReloadCount((count) => count + 1)
    if (next !== undefined) openClaim(next, { focus: 'decision' })
  }
  const isSearching = query !== '' || Object.keys(filters).length > 0
  return (
    <article className="card staff-dashboard">
      <a
        className="skip-link"
        href={`#${listId}-table`}
        onClick={(event) => {
          event.preventDefault()
          tableRef.current?.focus()
        }}
      >
        Skip to the claims
      </a>
      <StaffHeader
        title={`${displayName} Admin Dashboard`}
        lead={`Manage ${displayName} submissions and view screenshots`}
        session={session}
      >
        <nav aria-label={`${displayName} pages`} className="staff-user-links app-links">
          <Link to={`/${slug}-admin/filing`}>Filing settings</Link>
          <Link to={`/${slug}-admin/batches`}>Notices and filing</Link>
          {canDecide || canPayApp(session.account, slug) ? (
            <Link to={`/${slug}-admin/payouts`}>Payouts</Link>
          ) : null}
        </nav>
      </StaffHeader>
      <div className="card-body">
        <ListToolbar
          term={term}
          onTerm={setTerm}
          searchRef={searchRef}
          csvButton={
            canExport ? (
              <CsvButton
                csv={csv}
                url={appCsvUrl(slug, query, { filters, flagged })}
                fallbackName={`${slug}-submissions-${localIsoDate()}.csv`}
              />
            ) : null
          }
          onRefresh={() => setReloadCount((count) => count + 1)}
          isReloading={list.status === 'loading' && result !== undefined}
        >
          {/* on a phone the filters fold, like the figures, so the list is on the first screen; a wide
              screen has room for them, open with no summary to close them */}
          <details
            className="filters-fold"
            open={filtersOpen}
            onToggle={(event) => setFiltersOpen(event.currentTarget.open)}
          >
            <summary>Filters{activeFilters > 0 ? ` (${activeFilters} on)` : ''}</summary>
            <ClaimFilterSelects
              values={filterValues}
              onChange={setFilterValues}
              stats={stats.data}
              assignees={assignees.data ?? []}
            />
          </details>
        </ListToolbar>
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
          // the figures fold into one line: the queue is what a reviewer comes for
          <details className="stats-fold">
            <summary>{stats.data ? statsSummary(stats.data) : 'Loading the figures…'}</summary>
            <StatCards stats={stats.data} />
            {stats.data ? <DailyChart daily={stats.data.daily} /> : null}
          </details>
        )}
        <p className="move-outcome" role="status">
          {moveOutcome}
        </p>

        {/* from a laptop's width up, the open claim sits beside the list, so a reviewer keeps their place
            in the list while reading it */}
        <DetailsBeside
          details={details}
          noun="claim"
          panelRef={detailsRef}
          onRetry={(id) => openClaim(id)}
          onClose={closeDetails}
          renderDetails={(claim) => (
            <ClaimDetails
              ref={detailsRef}
              claim={claim}
              canExport={canExport}
              onClose={closeDetails}
              onUnauthorized={session.expired}
              isZoomed={zoomedId === claim.id}
              onZoom={(isZoomed) => setZoomedId(isZoomed ? claim.id : undefined)}
              fraud={
                <FraudScorePanel
                  key={claim.id}
                  claimId={claim.id}
                  app={slug}
                  onOpenClaim={(id) => openClaim(id)}
                  onDecided={() => setReloadCount((count) => count + 1)}
                  onUnauthorized={session.expired}
                />
              }
              decision={
                <ClaimReviewPanel
                  key={`${claim.id}:${duplicateDecisions}`}
                  claimId={claim.id}
                  focusDecision={focusOnOpen === 'decision'}
                  onMoved={(message) => onMoved(claim.id, message)}
                  onUnauthorized={session.expired}
                />
              }
            >
              <AssigneeField
                key={claim.id}
                claimId={claim.id}
                assignee={claim.assignee}
                assignees={assignees.data ?? []}
                onAssigned={() => setReloadCount((count) => count + 1)}
                onUnauthorized={session.expired}
              />
              {claim.duplicateOf.length > 0 ? (
                <DuplicateScreenshots
                  claim={claim}
                  app={slug}
                  onOpenClaim={(id) => openClaim(id)}
                  onDecided={() => {
                    setDuplicateDecisions((count) => count + 1)
                    setReloadCount((count) => count + 1)
                  }}
                  onUnauthorized={session.expired}
                />
              ) : null}
            </ClaimDetails>
          )}
        >
          <ListSection
            headingId={`${listId}-list`}
            headingExtras={
              <>
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
              </>
            }
            hint={
              <>
                Keys: <kbd>j</kbd> and <kbd>k</kbd> open the next and previous claim, <kbd>/</kbd> searches,{' '}
                <kbd>Esc</kbd> closes the claim; <kbd>?</kbd> lists every key.
              </>
            }
            list={list}
            empty={(shown) => (
              <EmptyClaimList
                query={query}
                isFiltered={Object.keys(filters).length > 0}
                flagged={flagged}
                total={shown.total}
              />
            )}
            table={(rows) => (
              <ClaimsTable
                ref={tableRef}
                id={`${listId}-table`}
                statusLabels={statusLabels}
                onKeyDown={onTableKeyDown}
                columns={config.dashboard.columns}
                claims={rows}
                selectedId={openId}
                onSelect={(claim, { zoom }) => openClaim(claim.id, { zoom })}
                order={order}
                onOrder={setOrder}
                checks={canDecide ? { checked: checkedIds, onChange: changeChecks } : undefined}
              />
            )}
            onPage={setPage}
          />
        </DetailsBeside>
        {canDecide && checkedIds.size > 0 ? (
          // follows the reviewer down the list while rows are checked; the move itself is the panel's
          <div className="selection-bar" role="region" aria-label="Checked claims">
            <span>
              {checkedIds.size} {checkedIds.size === 1 ? 'claim' : 'claims'} checked
            </span>
            <button type="button" className="primary" onClick={goToBulkMove}>
              Move them…
            </button>
            <button
              type="button"
              className="secondary"
              onClick={() => setChecks({ listKey, ids: new Set() })}
            >
              Clear
            </button>
          </div>
        ) : null}
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
      <ShortcutSheet isOpen={isSheetOpen} onClose={() => setIsSheetOpen(false)} />
    </article>
  )
}
