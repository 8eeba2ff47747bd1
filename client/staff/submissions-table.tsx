import { useEffect, useRef, type KeyboardEvent, type ReactNode, type Ref } from 'react'
import type { DashboardColumn } from '../../src/form-config.ts'
import { FILTER_COLUMNS } from './claim-filters.tsx'
import { cellText } from './format.ts'
import type { StaffSubmission } from './staff-api.ts'

/**
 * 'All Submissions': the columns the app's config lists, those every app has, then the actions; with
 * `checks`, a first column of checkboxes for a bulk move, and one that checks the whole page.
 */
export function SubmissionsTable({
  columns: configColumns,
  submissions,
  selectedId,
  onSelect,
  statusLabels,
  onKeyDown,
  checks,
  ref,
}: {
  columns: DashboardColumn[]
  submissions: StaffSubmission[]
  selectedId: number | undefined
  onSelect: (submission: StaffSubmission) => void
  /** Each review status's label; a status without one shows its name. */
  statusLabels: Record<string, string>
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void
  /** The checked claims' ids and how to change them; left out, the table has no checkboxes. */
  checks?: { checked: ReadonlySet<number>; onChange: (ids: number[], isChecked: boolean) => void }
  ref?: Ref<HTMLDivElement>
}) {
  const columns = [...configColumns, ...FILTER_COLUMNS]
  return (
    // the region scrolls sideways on a phone; tabIndex lets a keyboard user scroll it too
    <div
      ref={ref}
      className="table-scroll"
      role="region"
      aria-label="All Submissions table"
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <table className="staff-table">
        <thead>
          <tr>
            {checks ? (
              <th scope="col" className="check-cell">
                <PageCheckbox submissions={submissions} checks={checks} />
              </th>
            ) : null}
            {columns.map((column) => (
              <th key={column.key} scope="col">
                {column.label}
              </th>
            ))}
            <th scope="col">Status</th>
            <th scope="col">Flagged</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {submissions.map((submission) => (
            <tr
              key={submission.id}
              data-claim-id={submission.id}
              className={submission.id === selectedId ? 'is-selected' : undefined}
              aria-current={submission.id === selectedId ? 'true' : undefined}
            >
              {checks ? (
                <td className="check-cell">
                  <input
                    type="checkbox"
                    aria-label={`Select claim ${submission.id}`}
                    checked={checks.checked.has(submission.id)}
                    onChange={(event) => checks.onChange([submission.id], event.target.checked)}
                  />
                </td>
              ) : null}
              {columns.map((column) => (
                <td key={column.key} data-column={column.key}>
                  {column.key === 'email'
                    ? breakableEmail(cellText(submission, column))
                    : cellText(submission, column)}
                </td>
              ))}
              <td data-column="status">{statusLabels[submission.reviewStatus] ?? submission.reviewStatus}</td>
              <td data-column="flagged">
                {/* flagged: another claimant sent the same screenshot; the count is of their claims */}
                {submission.duplicateOf.length > 0 ? (
                  <span className="flagged-mark">Yes ({submission.duplicateOf.length})</span>
                ) : (
                  'No'
                )}
              </td>
              <td>
                <div className="row-actions">
                  <button type="button" className="secondary" onClick={() => onSelect(submission)}>
                    View Details
                  </button>
                  <a
                    className="button-link"
                    href={submission.screenshotUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    View Screenshot
                  </a>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** "Select all on this page": checked when every row is, mixed when some are. */
function PageCheckbox({
  submissions,
  checks,
}: {
  submissions: StaffSubmission[]
  checks: NonNullable<Parameters<typeof SubmissionsTable>[0]['checks']>
}) {
  const ref = useRef<HTMLInputElement>(null)
  const count = submissions.filter(({ id }) => checks.checked.has(id)).length
  const isAll = count > 0 && count === submissions.length
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
          submissions.map(({ id }) => id),
          event.target.checked,
        )
      }
    />
  )
}

/** A narrow column wraps an address after its "@" rather than in the middle of a name (see styles.css). */
function breakableEmail(email: string): ReactNode {
  const at = email.indexOf('@')
  if (at < 0) return email
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  )
}
