import { useEffect, useRef, useState } from 'react'
import type { PayoutItemView } from '../../../src/api/payouts.ts'
import { formatCents } from '../../../src/money.ts'
import { Link } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import { Pagination } from '../shared/pagination.tsx'
import { TableRegion } from '../shared/table-region.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { fetchPayoutItems, payoutStatementHref } from './payout-api.ts'
import { METHOD_LABELS } from './payout-words.ts'

/** Items a page of the panel shows; a batch of PayPal's 15,000 is paged through, or read in the files. */
export const ITEM_PAGE_SIZE = 100

/**
 * A batch's items, a page at a time, read again when `reloadKey` changes (the send job and the
 * provider's answers move them). Previous and Next stand above the rows; a new page takes the focus to
 * the line saying which items it shows, just above them.
 */
export function PayoutItemsSection({
  slug,
  batchId,
  name,
  reloadKey,
  onUnauthorized,
}: {
  slug: string
  batchId: number
  /** "payout batch 3". */
  name: string
  reloadKey: string
  onUnauthorized: () => void
}) {
  const [page, setPage] = useState(1)
  const items = useStaffResource({
    key: `${batchId}:${reloadKey}:${page}`,
    load: (signal) => fetchPayoutItems({ batchId, page, pageSize: ITEM_PAGE_SIZE, signal }),
    onUnauthorized,
  })
  const rangeRef = useRef<HTMLParagraphElement>(null)
  // each press of Previous or Next moves the focus once, when its page has come; not a reload's
  const [pagings, setPagings] = useState(0)
  const focusedPagings = useRef(0)
  const isShown = items.status === 'ready' && items.data.page === page
  useEffect(() => {
    if (pagings === focusedPagings.current || !isShown) return
    focusedPagings.current = pagings
    rangeRef.current?.focus()
  }, [pagings, isShown])

  if (items.status === 'failed') {
    return (
      <p className="alert" role="alert">
        The items could not be loaded: {items.message}. Reload the page to try again.
      </p>
    )
  }
  if (!items.data) return <Loading label="Loading the items..." />
  const { count, items: shown } = items.data
  const first = (items.data.page - 1) * items.data.pageSize + 1
  return (
    <>
      {count > ITEM_PAGE_SIZE ? (
        <p ref={rangeRef} tabIndex={-1} className="batch-note">
          Items {first.toLocaleString('en-US')}–{(first + shown.length - 1).toLocaleString('en-US')} of{' '}
          {count.toLocaleString('en-US')}
        </p>
      ) : null}
      {/* above the rows, so the keyboard reaches Next without passing a hundred rows' links */}
      <Pagination
        label={`Pages of the items of ${name}`}
        page={page}
        pageSize={ITEM_PAGE_SIZE}
        count={count}
        onPage={(next) => {
          setPage(next)
          setPagings((n) => n + 1)
        }}
      />
      <ItemsTable slug={slug} name={name} items={shown} />
    </>
  )
}

/** Where an item's money goes, masked: the wallet's receiver, the bank account's last four, or the check. */
function paidTo(item: PayoutItemView): string {
  if (item.method === 'check') return item.checkNumber === null ? 'Check' : `Check ${item.checkNumber}`
  return item.receiver ?? item.account ?? '—'
}

function ItemsTable({ slug, name, items }: { slug: string; name: string; items: PayoutItemView[] }) {
  return (
    <TableRegion
      label={`Items of ${name}`}
      headings={[
        'Claim',
        'Claimant',
        'Method',
        'Paid to',
        'TIN',
        'Gross',
        'Fee',
        'Costs',
        'Withholding',
        'Net',
        'Status',
        'Statement',
      ]}
      moneyHeadings={['Gross', 'Fee', 'Costs', 'Withholding', 'Net']}
      cards
    >
      {items.map((item) => (
        <tr key={item.id} data-claim-id={item.claimId}>
          <th scope="row" data-label="Claim">
            <Link to={`/${slug}-admin/claims/${item.claimId}`}>{item.claimId}</Link>
          </th>
          <td data-label="Claimant">{item.claimantName}</td>
          <td data-label="Method">{METHOD_LABELS[item.method]}</td>
          <td data-label="Paid to">{paidTo(item)}</td>
          <td data-label="TIN">{item.tin ?? 'No W-9'}</td>
          <td data-label="Gross" className="money">
            {formatCents(item.grossCents)}
          </td>
          <td data-label="Fee" className="money">
            {formatCents(item.feeCents)} ({item.feePercent}%)
          </td>
          <td data-label="Costs" className="money">
            {formatCents(item.costsCents)}
          </td>
          <td data-label="Withholding" className="money">
            {formatCents(item.withholdingCents)}
          </td>
          <td data-label="Net" className="money">
            {formatCents(item.netCents)}
          </td>
          <td data-label="Status">
            {item.status}
            {item.failure ? <span className="batch-by">{item.failure}</span> : null}
          </td>
          <td data-label="Statement">
            <a href={payoutStatementHref(item.claimId)} download>
              PDF<span className="visually-hidden"> statement of claim {item.claimId}</span>
            </a>
          </td>
        </tr>
      ))}
    </TableRegion>
  )
}
