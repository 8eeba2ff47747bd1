import type { PayoutCostsApart, PayoutFigures, PayoutReconciliation } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { TableRegion } from '../shared/table-region.tsx'

const FIGURES: { key: keyof PayoutFigures; label: string }[] = [
  { key: 'receivedCents', label: 'Received' },
  { key: 'feeCents', label: 'Fee' },
  { key: 'costsCents', label: 'Costs' },
  { key: 'withholdingCents', label: 'Withholding' },
  { key: 'netPaidCents', label: 'Net paid' },
  { key: 'returnedCents', label: 'Returned' },
  { key: 'heldCents', label: 'Held' },
]

/**
 * The trust account's figures twice, from its entries and from the awards and items, a line a figure
 * with its difference; a difference of $0.00 reads "balanced", and the line under the table says in
 * words whether every figure is.
 */
export function ReconciliationTable({ label, data }: { label: string; data: PayoutReconciliation }) {
  const isBalanced = data.differenceCents === 0
  return (
    <>
      <TableRegion
        label={label}
        headings={['Figure', 'From the trust entries', 'From the awards and items', 'Difference']}
        moneyHeadings={['From the trust entries', 'From the awards and items', 'Difference']}
        cards
      >
        {FIGURES.map(({ key, label: name }) => (
          <tr key={key} data-figure={key}>
            <th scope="row">{name}</th>
            <td data-label="From the trust entries" className="money">
              {formatCents(data.fromTrustEntries[key])}
            </td>
            <td data-label="From the awards and items" className="money">
              {formatCents(data.fromAwardsAndItems[key])}
            </td>
            <td data-label="Difference" className="money">
              {data.differences[key] === 0 ? '$0.00, balanced' : formatCents(data.differences[key])}
            </td>
          </tr>
        ))}
      </TableRegion>
      <CostsApart costs={data.costs} />
      <p className={isBalanced ? 'reconciled' : 'alert'}>
        {isBalanced
          ? 'Balanced: the trust entries and the awards and items agree to the cent.'
          : `Not balanced: the figures differ by ${formatCents(data.differenceCents)} in all. Tell the firm's administrator: verify-evidence names the trust entry that changed.`}
      </p>
    </>
  )
}

/** Where the costs charged come from: advanced on the claims, shared by batches, less what the awards could not cover. */
function CostsApart({ costs }: { costs: PayoutCostsApart }) {
  if (costs.advancedOnClaimsCents === 0 && costs.sharedCents === 0) return null
  const charged = costs.advancedOnClaimsCents + costs.sharedCents - costs.waivedCents
  return (
    <p className="batch-note">
      Costs: {formatCents(costs.advancedOnClaimsCents)} advanced on claims + {formatCents(costs.sharedCents)}{' '}
      shared by batches
      {costs.waivedCents > 0
        ? ` − ${formatCents(costs.waivedCents)} more than the awards left after the fee (the firm bears it)`
        : ''}{' '}
      = {formatCents(charged)} charged.
    </p>
  )
}
