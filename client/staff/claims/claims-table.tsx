import { useEffect, useRef, type KeyboardEvent, type Ref } from 'react'
import type { DashboardColumn } from '../../../src/form-config.ts'
import { FILTER_COLUMNS } from './claim-filters.tsx'
import { breakableEmail } from '../shared/breakable-email.tsx'
import { ListRow, ListTable } from '../shared/list-view.tsx'
import { cellText } from '../shared/format.ts'
import type { ListOrder, StaffClaimRow } from '../shared/staff-api.ts'
import { FraudScoreCell } from './fraud-score-cell.tsx'

/**
 * The config's first columns (the name and e-mail), which stay when the details open beside the list;
 * the others are marked data-optional and give way (styles.css), so the status and flag stay in view.
 */
const KEPT_BESIDE_DETAILS = 2

/**
 * 'All Submissions': the claim's id, the columns the app's config lists, those every app has, then the
 * actions; with `checks`, each id has a checkbox for a bulk move, and the heading one for the page.
 * The id and the first config column (the name) stay in view while a phone scrolls the row.
 */
export function ClaimsTable({
  columns: configColumns,
  claims,
  selectedId,
  onSelect,
  statusLabels,
  onKeyDown,
  checks,
  order,
  onOrder,
  id,
  ref,
}: {
  columns: DashboardColumn[]
  claims: StaffClaimRow[]
  selectedId: number | undefined
  /** Open the claim; `zoom`: with its screenshot at full size (the row's View Screenshot). */
  onSelect: (claim: StaffClaimRow, options: { zoom: boolean }) => void
  /** Each review status's label; a status without one shows its name. */
  statusLabels: Record<string, string>
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void
  /** The list's order by date, which the Claim and Date headings switch, or by score (the server sorts). */
  order: ListOrder
  onOrder: (order: ListOrder) => void
  /** The checked claims' ids and how to change them; left out, the table has no checkboxes. */
  checks?: { checked: ReadonlySet<number>; onChange: (ids: number[], isChecked: boolean) => void }
  /** The region's id, which the dashboard's "Skip to the claims" link names. */
  id?: string
  ref?: Ref<HTMLDivElement>
}) {
  const columns = [...configColumns, ...FILTER_COLUMNS]
  // the row whose box was last changed, and whether Shift was down on this change: a range of rows
  const lastChecked = useRef<number | undefined>(undefined)
  const rangeKey = useRef(false)
  return (
    <ListTable ref={ref} id={id} onKeyDown={onKeyDown}>
      <thead>
        <tr>
          <th scope="col" className="claim-cell" aria-sort={ariaSort(order)}>
            {checks ? <PageCheckbox claims={claims} checks={checks} /> : null}
            <SortButton label="Claim" order={order} onOrder={onOrder} />
          </th>
          {columns.map((column, i) => (
            <th
              key={column.key}
              scope="col"
              className={i === 0 ? 'lead-cell' : undefined}
              data-optional={i >= KEPT_BESIDE_DETAILS ? '' : undefined}
              aria-sort={column.key === DATE_COLUMN ? ariaSort(order) : undefined}
            >
              {column.key === DATE_COLUMN ? (
                <SortButton label={column.label} order={order} onOrder={onOrder} />
              ) : (
                column.label
              )}
            </th>
          ))}
          <th scope="col">Status</th>
          <th scope="col" aria-sort={order === 'score' ? 'ascending' : undefined}>
            <ScoreSortButton order={order} onOrder={onOrder} />
          </th>
          <th scope="col">Flagged</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {claims.map((claim) => (
          <ListRow key={claim.id} data-claim-id={claim.id} isSelected={claim.id === selectedId}>
            <td className="claim-cell" data-column="id">
              {checks ? (
                <input
                  type="checkbox"
                  aria-label={`Select claim ${claim.id}`}
                  checked={checks.checked.has(claim.id)}
                  onClick={(event) => (rangeKey.current = event.shiftKey)}
                  onChange={(event) => {
                    // Shift with a check sets every row from the last one checked to this one alike
                    const index = claims.indexOf(claim)
                    const from =
                      rangeKey.current && lastChecked.current !== undefined ? lastChecked.current : index
                    const rows = claims.slice(Math.min(from, index), Math.max(from, index) + 1)
                    checks.onChange(
                      rows.map((row) => row.id),
                      event.target.checked,
                    )
                    lastChecked.current = index
                    rangeKey.current = false
                  }}
                />
              ) : null}
              {claim.id}
            </td>
            {columns.map((column, i) => (
              <td
                key={column.key}
                data-column={column.key}
                className={i === 0 ? 'lead-cell' : undefined}
                data-optional={i >= KEPT_BESIDE_DETAILS ? '' : undefined}
              >
                {column.key === 'email' ? breakableEmail(cellText(claim, column)) : cellText(claim, column)}
              </td>
            ))}
            <td data-column="status">{statusLabels[claim.reviewStatus] ?? claim.reviewStatus}</td>
            <td data-column="fraudScore">
              <FraudScoreCell score={claim.fraudScore} standing={claim.fraudStanding} />
            </td>
            <td data-column="flagged">
              {/* flagged: another claimant sent the same screenshot; the count is of their claims */}
              {claim.duplicateOf.length > 0 ? (
                <span className="flagged-mark">Yes ({claim.duplicateOf.length})</span>
              ) : (
                'No'
              )}
            </td>
            <td>
              <div className="row-actions">
                <button
                  type="button"
                  className="secondary view-details"
                  onClick={() => onSelect(claim, { zoom: false })}
                >
                  View Details
                </button>
                {/* in the details panel, zoomed: a new tab for each claim loses the reviewer's place */}
                <button type="button" className="secondary" onClick={() => onSelect(claim, { zoom: true })}>
                  View Screenshot
                </button>
              </div>
            </td>
          </ListRow>
        ))}
      </tbody>
    </ListTable>
  )
}

/** The claim's date, by which (with its id) the list is sorted. */
const DATE_COLUMN = 'createdAt'

function ariaSort(order: ListOrder): 'ascending' | 'descending' | undefined {
  if (order === 'score') return undefined
  return order === 'oldest' ? 'ascending' : 'descending'
}

/** A sortable heading: pressing it turns the list's order over, and it says which order is next. */
function SortButton({
  label,
  order,
  onOrder,
}: {
  label: string
  order: ListOrder
  onOrder: (order: ListOrder) => void
}) {
  const next = order === 'newest' ? 'oldest' : 'newest'
  return (
    <button type="button" className="sort-button" title={`Sort ${next} first`} onClick={() => onOrder(next)}>
      {label}
      {order === 'score' ? null : (
        <span className="sort-arrow" aria-hidden="true">
          {order === 'newest' ? '↓' : '↑'}
        </span>
      )}
    </button>
  )
}

/** The Score heading: the lowest score first, the worst claims on top; pressed again, newest first. */
function ScoreSortButton({ order, onOrder }: { order: ListOrder; onOrder: (order: ListOrder) => void }) {
  const isOn = order === 'score'
  return (
    <button
      type="button"
      className="sort-button"
      title={isOn ? 'Sort newest first' : 'Sort lowest score first'}
      onClick={() => onOrder(isOn ? 'newest' : 'score')}
    >
      Score
      {isOn ? (
        <span className="sort-arrow" aria-hidden="true">
          ↑
        </span>
      ) : null}
    </button>
  )
}

/** "Select all on this page": checked when every row is, mixed when some are. */
function PageCheckbox({
  claims,
  checks,
}: {
  claims: StaffClaimRow[]
  checks: NonNullable<Parameters<typeof ClaimsTable>[0]['checks']>
}) {
  const ref = useRef<HTMLInputElement>(null)
  const count = claims.filter(({ id }) => checks.checked.has(id)).length
  const isAll = count > 0 && count === claims.length
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && !isAll
  }, [count, isAll])
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label="Select all on this page"
      checked={isAll}
      onChange={(event) =>
        checks.onChange(
          claims.map(({ id }) => id),
          event.target.checked,
        )
      }
    />
  )
}
