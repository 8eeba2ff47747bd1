import type { PayoutBatchView } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { formatDateTime } from '../shared/format.ts'
import { TableRegion } from '../shared/table-region.tsx'
import { batchStatusText, itemsText, payoutBatchName, totalsLines } from './payout-words.ts'

/** The id of a batch's "Open" button, for the focus to come back to when its panel closes. */
export function openButtonId(batchId: number): string {
  return `open-payout-batch-${batchId}`
}

/**
 * The app's payout batches, newest first: state, maker and checker, items and sums, and the button
 * that opens a batch's items, files and reconciliation below the table.
 */
export function PayoutBatchesTable({
  batches,
  openId,
  onOpen,
}: {
  batches: PayoutBatchView[]
  openId: number | undefined
  onOpen: (batchId: number) => void
}) {
  return (
    <TableRegion
      label="Payout batches table"
      headings={['Batch', 'Status', 'Built by', 'Approved by', 'Items', 'Totals', 'Details']}
      cards
    >
      {batches.length === 0 ? (
        <tr>
          <td colSpan={7} className="empty-row">
            No payout batch has been built yet.
          </td>
        </tr>
      ) : (
        batches.map((batch) => (
          <tr key={batch.id} data-payout-batch-id={batch.id}>
            <th scope="row">{payoutBatchName(batch)}</th>
            <td className="batch-status" data-label="Status">
              {batchStatusText(batch)}
            </td>
            <td data-label="Built by">
              {batch.builtBy}
              <span className="batch-by">{formatDateTime(batch.builtAt)}</span>
            </td>
            <td data-label="Approved by">
              {batch.approvedBy ?? '—'}
              {batch.approvedAt ? <span className="batch-by">{formatDateTime(batch.approvedAt)}</span> : null}
            </td>
            <td data-label="Items">{itemsText(batch)}</td>
            <td data-label="Totals">
              <dl className="payout-sums">
                {totalsLines(batch.totals).map(({ label, cents }) => (
                  <div key={label}>
                    <dt>{label}</dt>
                    <dd>{formatCents(cents)}</dd>
                  </div>
                ))}
              </dl>
            </td>
            <td>
              <button
                id={openButtonId(batch.id)}
                type="button"
                className="secondary"
                aria-expanded={openId === batch.id}
                onClick={() => onOpen(batch.id)}
              >
                Open<span className="visually-hidden"> {payoutBatchName(batch).toLowerCase()}</span>
              </button>
            </td>
          </tr>
        ))
      )}
    </TableRegion>
  )
}
