import { useState, type KeyboardEvent, type ReactNode, type Ref } from 'react'
import { Loading } from '../../ui/loading.tsx'
import { DetailsProblem } from './details-panel.tsx'
import { Pagination } from './pagination.tsx'
import { SearchRow } from './search-row.tsx'
import type { StaffPage } from './staff-api.ts'
import type { OpenDetails } from './use-open-details.ts'
import type { StaffResource } from './use-staff-resource.ts'

/** A page of a staff list; a claim list's count may stop at a cap ("1,000+"). */
export type ListPage<Row> = StaffPage<Row> & { isCountCapped?: boolean }

/**
 * The page a list shows, which belongs to the list it was chosen in (`listKey`: its search, filters,
 * order): a new list starts again at page 1.
 */
export function useListPage(listKey: string, initialPage = 1): [number, (page: number) => void] {
  const [paging, setPaging] = useState(() => ({ listKey, page: initialPage }))
  const page = paging.listKey === listKey ? paging.page : 1
  return [page, (next) => setPaging({ listKey, page: next })]
}

/**
 * A staff list's toolbar: the search, what the list adds (its filters), then its CSV button, Refresh,
 * and a spinner while a reload is on its way (the rows before it stay on screen).
 */
export function ListToolbar({
  term,
  onTerm,
  searchRef,
  csvButton,
  onRefresh,
  isReloading,
  children,
}: {
  term: string
  onTerm: (term: string) => void
  searchRef?: Ref<HTMLInputElement>
  csvButton: ReactNode
  onRefresh: () => void
  isReloading: boolean
  children?: ReactNode
}) {
  return (
    <div className="staff-toolbar">
      <SearchRow term={term} onTerm={onTerm} ref={searchRef} />
      {children}
      <div className="action-row">
        {csvButton}
        <button type="button" className="secondary" onClick={onRefresh}>
          Refresh
        </button>
        {isReloading ? (
          <span className="inline-spinner" role="status">
            <span className="spinner" aria-hidden="true" />
            Loading...
          </span>
        ) : null}
      </div>
    </div>
  )
}

/**
 * The list with the open record beside it (from a laptop's width up, styles.css), so the reader keeps
 * their place in the list: its details once loaded, a note while they load, or what went wrong.
 */
export function DetailsBeside<T>({
  details,
  noun,
  panelRef,
  onRetry,
  onClose,
  renderDetails,
  children,
}: {
  details: OpenDetails<T>
  /** What the list holds, as its texts name it: "claim", "submission". */
  noun: string
  panelRef: Ref<HTMLElement>
  onRetry: (id: number) => void
  onClose: () => void
  renderDetails: (data: T) => ReactNode
  /** The list. */
  children: ReactNode
}) {
  return (
    <div className={`review-workspace${details.status === 'closed' ? '' : ' with-details'}`}>
      {details.status === 'loading' ? (
        <p className="inline-spinner" role="status">
          <span className="spinner" aria-hidden="true" />
          {`Opening the ${noun}'s details...`}
        </p>
      ) : details.status === 'failed' ? (
        <DetailsProblem
          ref={panelRef}
          noun={noun}
          message={details.message}
          onRetry={() => onRetry(details.id)}
          onClose={onClose}
        />
      ) : details.status === 'ready' ? (
        renderDetails(details.data)
      ) : null}
      {children}
    </div>
  )
}

/**
 * 'All Submissions': the heading with what the list adds beside it, the list's keys, then its rows and
 * pages, or the loading note, the list's own note for no rows, or what went wrong.
 */
export function ListSection<Row>({
  headingId,
  headingExtras,
  hint,
  list,
  empty,
  table,
  onPage,
}: {
  headingId: string
  headingExtras?: ReactNode
  hint: ReactNode
  list: StaffResource<ListPage<Row>>
  empty: (page: ListPage<Row>) => ReactNode
  table: (rows: Row[]) => ReactNode
  onPage: (page: number) => void
}) {
  const result = list.data
  return (
    <section className="staff-panel" aria-labelledby={headingId}>
      <div className="list-heading">
        <h2 id={headingId}>All Submissions</h2>
        {headingExtras}
      </div>
      <p className="hint">{hint}</p>
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
        empty(result)
      ) : (
        <>
          {table(result.data)}
          <Pagination
            page={result.page}
            pageSize={result.pageSize}
            count={result.count}
            isCountCapped={result.isCountCapped ?? false}
            onPage={onPage}
          />
        </>
      )}
    </section>
  )
}

/** A list's table in a region that scrolls sideways on a phone; tabIndex lets a keyboard scroll it too. */
export function ListTable({
  id,
  className = 'staff-table',
  onKeyDown,
  ref,
  children,
}: {
  /** The region's id, for a "Skip to" link. */
  id?: string | undefined
  className?: string
  onKeyDown?: ((event: KeyboardEvent<HTMLDivElement>) => void) | undefined
  ref?: Ref<HTMLDivElement> | undefined
  children: ReactNode
}) {
  return (
    <div
      ref={ref}
      id={id}
      className="table-scroll"
      role="region"
      aria-label="All Submissions table"
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <table className={className}>{children}</table>
    </div>
  )
}

/** A list's row, marked while its record is open beside the list; `data-*` name the record for scripts. */
export function ListRow({
  isSelected,
  children,
  ...data
}: { isSelected: boolean; children: ReactNode } & { [attribute: `data-${string}`]: number }) {
  return (
    <tr
      {...data}
      className={isSelected ? 'is-selected' : undefined}
      aria-current={isSelected ? 'true' : undefined}
    >
      {children}
    </tr>
  )
}
