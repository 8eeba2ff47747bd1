import type { StaffStats } from '../shared/staff-api.ts'

export function StatCards({ stats }: { stats: StaffStats | undefined }) {
  const cards: [label: string, value: string | undefined][] = [
    ['Total Submissions', stats?.total.toLocaleString('en-US')],
    ['Avg Membership Months', stats?.avgMembershipMonths.toLocaleString('en-US')],
    ['Avg Cash Advances', stats?.avgCashAdvances.toLocaleString('en-US')],
    ['Confirmed by Claimant', stats && confirmedShare(stats)],
  ]
  return (
    <>
      <ul className="stat-cards" aria-label="Summary">
        {cards.map(([label, value]) => (
          <li key={label} className="stat-card">
            <span className="stat-label">{label}</span>
            <span className="stat-value">{value ?? '…'}</span>
          </li>
        ))}
      </ul>
      {stats ? (
        <ul className="stat-cards status-cards" aria-label="Claims by review status">
          {stats.statuses.map(({ status, label, count }) => (
            <li key={status} className="stat-card">
              <span className="stat-label">{label}</span>
              <span className="stat-value">{count.toLocaleString('en-US')}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

/**
 * The figures in one line, the summary of their fold: "1,234 claims · 80% confirmed · Received 30 ·
 * In review 5" (statuses no claim is in are left out).
 */
export function statsSummary(stats: StaffStats): string {
  const statuses = stats.statuses
    .filter(({ count }) => count > 0)
    .map(({ label, count }) => `${label} ${count.toLocaleString('en-US')}`)
  return [
    `${stats.total.toLocaleString('en-US')} claim${stats.total === 1 ? '' : 's'}`,
    `${confirmedShare(stats)} confirmed`,
    ...statuses,
  ].join(' · ')
}

/** The share of claims their claimants confirmed, in whole percent ("0%" without claims). */
function confirmedShare({ total, confirmed }: StaffStats): string {
  return `${total === 0 ? 0 : Math.round((confirmed / total) * 100)}%`
}
