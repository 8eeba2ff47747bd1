import type { KeyboardEvent, Ref } from 'react'
import { formatListTime, fullName } from '../shared/format.ts'
import { INTAKE_CONFIRMATION_LABELS } from '../../../src/api/staff.ts'
import type { IntakeSubmission } from '../shared/staff-api.ts'
import { breakableEmail } from '../shared/breakable-email.tsx'
import { ListRow, ListTable } from '../shared/list-view.tsx'

/**
 * The main admin view's 'All Submissions': the spec's columns (Name, Email, Phone, Apps Used,
 * Signature, Date) after the intake's id, the claimant's answer to the intake's e-mail (Confirmed, Not
 * confirmed, "Not me"), then View Details; one line a row, in the dashboards' classes,
 * the id and name kept in view while a phone scrolls the row. Beside an open intake's details
 * (which show them) the phone, signature and confirmation give way, so View Details stays in view.
 */
export function IntakesTable({
  intakes,
  selectedId,
  onSelect,
  onKeyDown,
  ref,
}: {
  intakes: IntakeSubmission[]
  selectedId: number | undefined
  onSelect: (id: number) => void
  onKeyDown?: (event: KeyboardEvent<HTMLDivElement>) => void
  ref?: Ref<HTMLDivElement>
}) {
  return (
    <ListTable ref={ref} onKeyDown={onKeyDown} className="staff-table intake-table">
      <thead>
        <tr>
          <th scope="col" className="claim-cell">
            ID
          </th>
          <th scope="col" className="lead-cell">
            Name
          </th>
          <th scope="col">Email</th>
          <th scope="col" data-optional="">
            Phone
          </th>
          <th scope="col">Apps Used</th>
          <th scope="col" data-optional="">
            Signature
          </th>
          <th scope="col">Date</th>
          <th scope="col" data-optional="">
            Confirmation
          </th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {intakes.map((intake) => (
          <ListRow key={intake.id} data-intake-id={intake.id} isSelected={intake.id === selectedId}>
            <td className="claim-cell" data-column="id">
              {intake.id}
            </td>
            <td className="lead-cell" data-column="name">
              {fullName(intake)}
            </td>
            <td data-column="email">{breakableEmail(intake.email)}</td>
            <td data-column="phone" data-optional="">
              {intake.phone}
            </td>
            <td data-column="apps">{intake.cashAdvanceApps.join(', ')}</td>
            <td data-column="signature" data-optional="">
              {intake.signature ? (
                <img className="signature-thumb" src={intake.signature} alt="Signature" />
              ) : null}
            </td>
            <td data-column="createdAt">{formatListTime(intake.createdAt)}</td>
            <td data-column="confirmation" data-optional="">
              {INTAKE_CONFIRMATION_LABELS[intake.confirmation]}
            </td>
            <td>
              <div className="row-actions">
                <button type="button" className="secondary" onClick={() => onSelect(intake.id)}>
                  View Details
                </button>
              </div>
            </td>
          </ListRow>
        ))}
      </tbody>
    </ListTable>
  )
}
