import type { PayoutBatchView, PayoutTotals } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import type { PayoutMethod } from '../../../src/payout-details.ts'

export const METHOD_LABELS: Record<PayoutMethod, string> = {
  paypal: 'PayPal',
  venmo: 'Venmo',
  ach: 'ACH bank transfer',
  check: 'Paper check',
}

export const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`

/** "Payout batch 3". */
export function payoutBatchName(batch: Pick<PayoutBatchView, 'id'>): string {
  return `Payout batch ${batch.id}`
}

const STATUS_WORDS: Record<PayoutBatchView['status'], string> = {
  built: 'Built: waiting for approval',
  approved: 'Approved: sending…',
  sent: 'Sent',
  closed: 'Closed',
}

export function batchStatusText(batch: PayoutBatchView): string {
  return STATUS_WORDS[batch.status]
}

/** "3 items: 2 sent, 1 pending". */
export function itemsText(batch: PayoutBatchView): string {
  const statuses = Object.entries(batch.itemStatuses).filter(([, count]) => count > 0)
  const count = statuses.reduce((sum, [, n]) => sum + n, 0)
  return `${plural(count, 'item', 'items')}${statuses.length ? `: ${statuses.map(([status, n]) => `${n} ${status}`).join(', ')}` : ''}`
}

/** Each sum of a batch, named: gross less fee, costs and withholding is the net paid to claimants. */
export function totalsLines(totals: PayoutTotals): { label: string; cents: number }[] {
  return [
    { label: 'Gross', cents: totals.grossCents },
    { label: 'Fee', cents: totals.feeCents },
    { label: 'Costs', cents: totals.costsCents },
    { label: 'Withholding', cents: totals.withholdingCents },
    { label: 'Net', cents: totals.netCents },
  ]
}

/** "gross $4,050.50, fee $1,620.20, costs $30.00, withholding $0.00, net $2,400.30". */
export function totalsText(totals: PayoutTotals): string {
  return totalsLines(totals)
    .map(({ label, cents }) => `${label.toLowerCase()} ${formatCents(cents)}`)
    .join(', ')
}
