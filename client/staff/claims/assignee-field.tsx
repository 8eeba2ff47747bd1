import { useId, useState } from 'react'
import { assignClaim, isUnauthorized, type StaffAssignee } from '../shared/staff-api.ts'

/**
 * Who reviews the claim, in its details: a select of the accounts that may (the server checks again),
 * saved as soon as one is chosen, with the outcome announced.
 */
export function AssigneeField({
  claimId,
  assignee: initial,
  assignees,
  onAssigned,
  onUnauthorized,
}: {
  claimId: number
  assignee: StaffAssignee | null
  /** The accounts the app's claims can be assigned to. */
  assignees: StaffAssignee[]
  onAssigned: (assignee: StaffAssignee | null) => void
  onUnauthorized: () => void
}) {
  const id = useId()
  const [assignee, setAssignee] = useState(initial)
  const [state, setState] = useState<
    { status: 'idle' } | { status: 'saving' } | { status: 'saved' | 'failed'; message: string }
  >({ status: 'idle' })
  // an assignee who can no longer be chosen (disabled meanwhile) still shows as the current one
  const choices =
    assignee && !assignees.some((account) => account.id === assignee.id)
      ? [assignee, ...assignees]
      : assignees

  const choose = (value: string) => {
    const accountId = value === '' ? null : Number(value)
    setState({ status: 'saving' })
    assignClaim({ id: claimId, accountId }).then(
      (answer) => {
        setAssignee(answer.assignee)
        onAssigned(answer.assignee)
        setState({
          status: 'saved',
          message: answer.assignee
            ? `Claim ${claimId} assigned to ${answer.assignee.email}.`
            : `Claim ${claimId} is not assigned to anyone.`,
        })
      },
      (error: unknown) => {
        if (isUnauthorized(error)) {
          onUnauthorized()
          return
        }
        setState({
          status: 'failed',
          message: `The claim could not be assigned: ${error instanceof Error ? error.message : String(error)}.`,
        })
      },
    )
  }

  return (
    <div className="assignee-field">
      <label htmlFor={id} className="filter-label">
        Assigned to
        <select
          id={id}
          className="form-control"
          value={assignee ? String(assignee.id) : ''}
          disabled={state.status === 'saving'}
          onChange={(event) => choose(event.target.value)}
        >
          <option value="">Nobody</option>
          {choices.map((account) => (
            <option key={account.id} value={String(account.id)}>
              {account.email}
            </option>
          ))}
        </select>
      </label>
      <p role="status" className="hint">
        {state.status === 'saved' ? state.message : ''}
      </p>
      {state.status === 'failed' ? (
        <p role="alert" className="alert">
          {state.message}
        </p>
      ) : null}
    </div>
  )
}
