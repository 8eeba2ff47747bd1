/**
 * Previous/Next, shown only when the matching rows do not fit on one page. A capped count (there are
 * more than `count`) leaves the number of pages open ("Page 1 of 20+") and Next enabled.
 */
export function Pagination({
  page,
  pageSize,
  count,
  isCountCapped = false,
  label = 'Pages',
  onPage,
}: {
  page: number
  pageSize: number
  count: number
  isCountCapped?: boolean
  /** The navigation's name: a page with two paged lists names each one's pages. */
  label?: string
  onPage: (page: number) => void
}) {
  const pageCount = Math.max(1, Math.ceil(count / pageSize))
  if (count <= pageSize && !isCountCapped) return null
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pageCount.toLocaleString('en-US')}
        {isCountCapped ? '+' : ''}
      </span>
      <button
        type="button"
        className="secondary"
        disabled={page >= pageCount && !isCountCapped}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  )
}
