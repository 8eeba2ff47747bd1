import { useId } from 'react'
import type { DashboardColumn } from '../../../src/form-config.ts'
import type { StaffAssignee, StaffStats } from '../shared/staff-api.ts'
import { CLAIM_FRAUD_STANDINGS, FRAUD_STANDING_LABELS } from '../../../src/api/fraud.ts'

/**
 * The dashboards' filters of an app's claims and the columns that show what they filter on, for every
 * app (the server reads them in server/dashboard/parse-claim-filters.ts). Each filter is a query parameter,
 * left out for all claims, in the API's address and the dashboard's (dashboard-address.ts).
 */
export interface ClaimFilterValues {
  /** 'disowned': the claimant answered the copy's link with "This wasn't me". */
  confirmed?: '' | 'yes' | 'no' | 'disowned'
  /** A review status's name. */
  status?: string
  /** A reason's name: the last move's. */
  reason?: string
  /** 'me', 'none', or an account's id. */
  assignee?: string
  /** YYYY-MM-DD, both days included, in the firm's time zone. */
  signedFrom?: string
  signedTo?: string
  language?: '' | 'en' | 'es'
  /** A notice or filing batch's number. */
  batch?: string
  /** The provider's case number. */
  case?: string
  /** Where the fraud score puts the claim: 'hold', 'review', 'clear', 'cleared' or 'unscored'. */
  fraud?: string
  /** A fraud test's code: the claims it deducted from. */
  fraudReason?: string
}

/** Columns every app's table shows after its config's own. */
export const FILTER_COLUMNS: DashboardColumn[] = [{ key: 'confirmedAt', label: 'Confirmed' }]

/** The chosen filters as query parameters (none for "All"). */
export function filterParams(values: ClaimFilterValues): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).filter(
      (entry): entry is [string, string] => entry[1] !== '' && entry[1] !== undefined,
    ),
  )
}

interface Choice {
  value: string
  label: string
}

export function ClaimFilterSelects({
  values,
  onChange,
  stats,
  assignees,
}: {
  values: ClaimFilterValues
  onChange: (values: ClaimFilterValues) => void
  /** The statuses and reasons with their labels; the selects offer only "All" until they arrive. */
  stats: StaffStats | undefined
  assignees: StaffAssignee[]
}) {
  const id = useId()
  const selects: { name: keyof ClaimFilterValues; label: string; choices: Choice[] }[] = [
    {
      name: 'status',
      label: 'Status',
      choices: (stats?.statuses ?? []).map(({ status, label }) => ({ value: status, label })),
    },
    {
      name: 'reason',
      label: 'Reason',
      choices: (stats?.reasons ?? []).map(({ name, label }) => ({ value: name, label })),
    },
    {
      name: 'assignee',
      label: 'Assignee',
      choices: [
        { value: 'me', label: 'Me' },
        { value: 'none', label: 'Nobody' },
        ...assignees.map((account) => ({ value: String(account.id), label: account.email })),
      ],
    },
    {
      name: 'confirmed',
      label: 'Confirmed',
      choices: [
        { value: 'yes', label: 'Confirmed' },
        { value: 'no', label: 'Not confirmed' },
        { value: 'disowned', label: "This wasn't me" },
      ],
    },
    {
      name: 'fraud',
      label: 'Fraud score',
      choices: CLAIM_FRAUD_STANDINGS.map((standing) => ({
        value: standing,
        label: standing === 'cleared' ? 'Cleared as not fraud' : FRAUD_STANDING_LABELS[standing],
      })),
    },
    {
      name: 'fraudReason',
      label: 'Fraud reason',
      choices: (stats?.fraudReasons ?? []).map(({ code, label }) => ({ value: code, label })),
    },
    {
      name: 'language',
      label: 'Language',
      choices: [
        { value: 'en', label: 'English' },
        { value: 'es', label: 'Spanish' },
      ],
    },
  ]
  return (
    <div className="filter-row">
      {selects.map((filter) => (
        <label key={filter.name} htmlFor={`${id}-${filter.name}`} className="filter-label">
          {filter.label}
          <select
            id={`${id}-${filter.name}`}
            className="form-control"
            value={values[filter.name] ?? ''}
            onChange={(event) => onChange({ ...values, [filter.name]: event.target.value })}
          >
            <option value="">All</option>
            {filter.choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      {(
        [
          ['signedFrom', 'Signed from'],
          ['signedTo', 'Signed to'],
        ] as const
      ).map(([name, label]) => (
        <label key={name} htmlFor={`${id}-${name}`} className="filter-label">
          {label}
          <input
            id={`${id}-${name}`}
            className="form-control"
            type="date"
            value={values[name] ?? ''}
            onChange={(event) => onChange({ ...values, [name]: event.target.value })}
          />
        </label>
      ))}
      <label htmlFor={`${id}-batch`} className="filter-label">
        Batch
        <input
          id={`${id}-batch`}
          className="form-control filter-number"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="off"
          maxLength={15}
          value={values.batch ?? ''}
          // only digits go to the server, which refuses anything else
          onChange={(event) => onChange({ ...values, batch: event.target.value.replace(/\D/g, '') })}
        />
      </label>
      <label htmlFor={`${id}-case`} className="filter-label">
        Case number
        <input
          id={`${id}-case`}
          className="form-control filter-case"
          type="text"
          autoComplete="off"
          maxLength={64}
          value={values.case ?? ''}
          onChange={(event) => onChange({ ...values, case: event.target.value })}
        />
      </label>
    </div>
  )
}
