import { useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from '../../routing/router.tsx'
import { IntakeDetailsPanel } from './intake-details-panel.tsx'
import { IntakesTable } from './intakes-table.tsx'
import { DetailsBeside, ListSection, ListToolbar, useListPage } from '../shared/list-view.tsx'
import { INTAKE_ADDRESS, intakeHref } from './intake-address.ts'
import { fetchIntake, fetchIntakes, INTAKE_CSV_URL } from '../shared/staff-api.ts'
import { StaffArea } from '../sign-in/staff-area.tsx'
import { useListKeys } from '../shared/use-list-keys.ts'
import { useCsvDownload } from '../shared/use-csv-download.ts'
import { useDebouncedValue } from '../shared/use-debounced-value.ts'
import { useOpenDetails } from '../shared/use-open-details.ts'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { StaffHeader } from '../sign-in/staff-header.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { CsvButton } from '../shared/csv-button.tsx'

const SEARCH_DELAY_MS = 250

/** The main page's admin mode: the gate, then every main-form submission, newest first. */
export function IntakeAdminView() {
  return (
    <StaffArea gateTitle="Admin Access" allows={(account) => account.role === 'admin'}>
      {(session) => <IntakesView session={session} />}
    </StaffArea>
  )
}

/** Server-side search, the list (j/k step through it) and an intake's details beside it. */
function IntakesView({ session }: { session: StaffSession }) {
  const navigate = useNavigate()
  const listId = useId()
  const [term, setTerm] = useState('')
  const query = useDebouncedValue(term.trim(), SEARCH_DELAY_MS)
  // the page belongs to the search it was chosen for: a new one starts again at page 1
  const [page, setPage] = useListPage(query)
  const [reloadCount, setReloadCount] = useState(0)
  // where closing the details goes back to: the address this view was opened at, its ?key=… kept
  const [homeAddress] = useState(() =>
    window.location.pathname === '/' ? `/${window.location.search}` : '/?key=',
  )
  const {
    details,
    open: openDetails,
    close: closeDetails,
  } = useOpenDetails({
    load: (id, signal) => fetchIntake({ id, signal }),
    onUnauthorized: session.expired,
  })
  const detailsRef = useRef<HTMLElement>(null)
  const tableRef = useRef<HTMLDivElement>(null)
  const [shouldFocusDetails, setShouldFocusDetails] = useState(false)
  const openIntake = (id: number) => {
    openDetails(id)
    setShouldFocusDetails(true)
  }

  useEffect(() => {
    document.title = 'All Submissions'
  }, [])
  useEffect(() => {
    const linked = INTAKE_ADDRESS.exec(window.location.pathname)?.[1]
    if (linked) openIntake(Number(linked))
    // once, when the view opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  // the open intake's address is in the address bar, to share with a colleague (admins only, as here)
  const openId = details.status === 'closed' ? undefined : details.id
  useEffect(() => {
    const address = openId === undefined ? homeAddress : intakeHref(openId)
    if (`${window.location.pathname}${window.location.search}` !== address)
      navigate(address, { replace: true })
  }, [openId, homeAddress, navigate])
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
    key: JSON.stringify([query, page, reloadCount]),
    load: (signal) => fetchIntakes({ query, page, signal }),
    onUnauthorized: session.expired,
  })
  const csv = useCsvDownload({
    failureMessage: 'Failed to download app submissions view. Please try again.',
    onUnauthorized: session.expired,
  })
  const result = list.data
  const onTableKeyDown = useListKeys({
    ids: result?.data.map((intake) => intake.id) ?? [],
    currentId: openId,
    onOpen: (id, key) => {
      if (key === 'letter') {
        openIntake(id)
        return
      }
      // the arrows keep the focus in the table, on the intake opened
      openDetails(id)
      tableRef.current?.querySelector<HTMLElement>(`tr[data-intake-id="${id}"] button`)?.focus()
    },
  })

  return (
    <article className="card staff-dashboard">
      <StaffHeader
        title="All Submissions"
        lead={`Main form submissions, newest first${result ? ` (${result.total.toLocaleString('en-US')})` : ''}`}
        session={session}
      />
      <div className="card-body">
        <ListToolbar
          term={term}
          onTerm={setTerm}
          csvButton={
            <CsvButton csv={csv} url={INTAKE_CSV_URL} fallbackName="app-submissions-view.csv">
              Download App Submissions View (CSV)
            </CsvButton>
          }
          onRefresh={() => setReloadCount((count) => count + 1)}
          isReloading={list.status === 'loading' && result !== undefined}
        />
        <p className="search-results" role="status">
          {query !== '' && result && list.status === 'ready'
            ? `Search results: ${result.count} of ${result.total} submissions`
            : ''}
        </p>

        {/* from a laptop's width up, the open intake sits beside the list (styles.css) */}
        <DetailsBeside
          details={details}
          noun="submission"
          panelRef={detailsRef}
          onRetry={openIntake}
          onClose={closeDetails}
          renderDetails={(intake) => (
            <IntakeDetailsPanel ref={detailsRef} intake={intake} onClose={closeDetails} />
          )}
        >
          <ListSection
            headingId={`${listId}-list`}
            hint={
              <>
                Keys: <kbd>j</kbd> and <kbd>k</kbd> open the next and previous submission; in the table,{' '}
                <kbd>↓</kbd> and <kbd>↑</kbd> do too.
              </>
            }
            list={list}
            empty={(shown) => (
              <div className="empty-state">
                {query !== '' ? (
                  <>
                    <p className="empty-title">No submissions match &quot;{query}&quot;</p>
                    <p className="hint">
                      Try searching by email, phone number, or name. Total submissions: {shown.total}
                    </p>
                  </>
                ) : (
                  <>
                    <p className="empty-title">No submissions found in database</p>
                    <p className="hint">If you expected submissions here, check the server logs.</p>
                  </>
                )}
              </div>
            )}
            table={(rows) => (
              <IntakesTable
                ref={tableRef}
                onKeyDown={onTableKeyDown}
                intakes={rows}
                selectedId={openId}
                onSelect={openIntake}
              />
            )}
            onPage={setPage}
          />
        </DetailsBeside>
      </div>
    </article>
  )
}
