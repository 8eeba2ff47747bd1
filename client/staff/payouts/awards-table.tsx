import type { AwardRow, AwardSource } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { Link } from '../../routing/router.tsx'
import { TableRegion } from '../shared/table-region.tsx'

const SOURCE_LABELS: Record<AwardSource, string> = {
  entered: 'Entered',
  imported: 'Imported',
  settlement: 'Settlement share',
}

/** A page of the app's awards: each claim linked to its review, its amount and costs, where it came from. */
export function AwardsTable({ slug, awards }: { slug: string; awards: AwardRow[] }) {
  return (
    <TableRegion
      label="Awards table"
      headings={['Claim', 'Claimant', 'Case number', 'Amount', 'Costs advanced', 'Source', 'Settlement']}
      moneyHeadings={['Amount', 'Costs advanced']}
      cards
    >
      {awards.length === 0 ? (
        <tr>
          <td colSpan={7} className="empty-row">
            No claim has an award yet.
          </td>
        </tr>
      ) : (
        awards.map((award) => (
          <tr key={award.claimId} data-claim-id={award.claimId}>
            <th scope="row" data-label="Claim">
              <Link to={`/${slug}-admin/claims/${award.claimId}`}>{award.claimId}</Link>
            </th>
            <td data-label="Claimant">{award.claimantName}</td>
            <td data-label="Case number">{award.caseNumber ?? '—'}</td>
            <td data-label="Amount" className="money">
              {formatCents(award.grossCents)}
            </td>
            <td data-label="Costs advanced" className="money">
              {formatCents(award.costsCents)}
            </td>
            <td data-label="Source">{SOURCE_LABELS[award.source]}</td>
            <td data-label="Settlement">{award.settlement?.name ?? '—'}</td>
          </tr>
        ))
      )}
    </TableRegion>
  )
}
