import type { StaffStats } from './staff-api.ts'

export function StatCards({ stats }: { stats: StaffStats | undefined }) {
  const cards: [label: string, value: number | undefined][] = [
    ['Total Submissions', stats?.total],
    ['Avg Membership Months', stats?.avgMembershipMonths],
    ['Avg Cash Advances', stats?.avgCashAdvances],
  ]
  return (
    <ul className="stat-cards" aria-label="Summary">
      {cards.map(([label, value]) => (
        <li key={label} className="stat-card">
          <span className="stat-label">{label}</span>
          <span className="stat-value">{value === undefined ? '…' : value.toLocaleString('en-US')}</span>
        </li>
      ))}
    </ul>
  )
}
