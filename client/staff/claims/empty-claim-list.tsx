/** The list's empty state, saying why it is empty (a search, a filter, Flagged only) and what to try. */
export function EmptyClaimList({
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
        <p className="hint">
          Try an e-mail, a phone number, a name, a claim ID, an intake reference (IN-000042) or a case number.
          Total submissions: {total}
        </p>
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
