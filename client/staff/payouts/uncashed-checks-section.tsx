import type { Ref } from 'react'
import { formatCents } from '../../../src/money.ts'
import { Link } from '../../routing/router.tsx'
import { Loading } from '../../ui/loading.tsx'
import { formatDate } from '../shared/format.ts'
import { TableRegion } from '../shared/table-region.tsx'
import { useStaffResource } from '../shared/use-staff-resource.ts'
import { fetchUncashedChecks } from './payout-api.ts'
import { plural } from './payout-words.ts'

/**
 * The app's checks still not cashed the app's uncashedCheckDays after they were sent, the oldest
 * first: whom to reach before the money becomes unclaimed funds. Payees are masked (the claim names
 * them).
 */
export function UncashedChecksSection({
  id,
  headingRef,
  slug,
  onUnauthorized,
}: {
  id: string
  headingRef: Ref<HTMLHeadingElement>
  slug: string
  onUnauthorized: () => void
}) {
  const answer = useStaffResource({
    key: slug,
    load: (signal) => fetchUncashedChecks({ slug, signal }),
    onUnauthorized,
  })
  const data = answer.data
  return (
    <section id={id} className="payouts-part" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        Checks not cashed
      </h2>
      {answer.status === 'failed' ? (
        <p className="alert" role="alert">
          The checks not cashed could not be loaded: {answer.message}. Reload the page to try again.
        </p>
      ) : !data ? (
        <Loading label="Looking for checks not cashed..." />
      ) : data.checks.length === 0 ? (
        <p>No check has gone uncashed for more than {plural(data.uncashedCheckDays, 'day', 'days')}.</p>
      ) : (
        <>
          <p className="payouts-totals">
            {plural(data.checks.length, 'check', 'checks')} sent more than{' '}
            {plural(data.uncashedCheckDays, 'day', 'days')} ago {data.checks.length === 1 ? 'is' : 'are'} not
            cashed: {formatCents(data.checks.reduce((sum, check) => sum + check.netCents, 0))}.
          </p>
          <p className="batch-note">
            Reach each payee through their claim: a check left uncashed is listed in the unclaimed funds
            report.
          </p>
          <TableRegion
            label="Checks not cashed table"
            headings={['Claim', 'Payee', 'Check', 'Amount', 'Sent', 'Days out']}
            moneyHeadings={['Amount']}
            cards
          >
            {data.checks.map((check) => (
              <tr key={check.itemId} data-claim-id={check.claimId}>
                <th scope="row" data-label="Claim">
                  <Link to={`/${slug}-admin/claims/${check.claimId}`}>{check.claimId}</Link>
                </th>
                <td data-label="Payee">{check.payee}</td>
                <td data-label="Check">{check.checkNumber}</td>
                <td data-label="Amount" className="money">
                  {formatCents(check.netCents)}
                </td>
                <td data-label="Sent">{formatDate(check.sentAt)}</td>
                <td data-label="Days out">{check.daysOut.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </TableRegion>
        </>
      )}
    </section>
  )
}
