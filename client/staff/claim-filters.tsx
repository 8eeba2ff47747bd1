import { useId } from 'react'
import type { DashboardColumn } from '../../src/form-config.ts'

/**
 * The dashboards' yes/no filters and the columns that show what they filter on, for every app (the
 * server's list is in server/staff/claim-filters.ts). Each filter is a query parameter: yes, no, or
 * left out for all claims.
 */
export const CLAIM_FILTERS = [
  {
    name: 'confirmed',
    label: 'Confirmed',
    choices: [
      { value: '', label: 'All' },
      { value: 'yes', label: 'Confirmed' },
      { value: 'no', label: 'Not confirmed' },
    ],
  },
] as const

export type ClaimFilterName = (typeof CLAIM_FILTERS)[number]['name']
export type ClaimFilterValues = Partial<Record<ClaimFilterName, '' | 'yes' | 'no'>>

/** Columns every app's table shows after its config's own. */
export const FILTER_COLUMNS: DashboardColumn[] = [{ key: 'confirmedAt', label: 'Confirmed' }]

/** The chosen filters as query parameters (none for "All"). */
export function filterParams(values: ClaimFilterValues): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== undefined))
}

export function ClaimFilterSelects({
  values,
  onChange,
}: {
  values: ClaimFilterValues
  onChange: (values: ClaimFilterValues) => void
}) {
  const id = useId()
  return (
    <div className="filter-row">
      {CLAIM_FILTERS.map((filter) => (
        <label key={filter.name} htmlFor={`${id}-${filter.name}`} className="filter-label">
          {filter.label}
          <select
            id={`${id}-${filter.name}`}
            className="form-control"
            value={values[filter.name] ?? ''}
            onChange={(event) =>
              onChange({ ...values, [filter.name]: event.target.value as '' | 'yes' | 'no' })
            }
          >
            {filter.choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
      ))}
    </div>
  )
}
