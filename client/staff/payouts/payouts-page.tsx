import { useEffect, useRef, useState, type MouseEvent } from 'react'
import { canDecideApp, canPayApp, type StaffAccountView } from '../../../src/api/staff.ts'
import type { FormConfig } from '../../../src/form-config.ts'
import { Link } from '../../routing/router.tsx'
import { StaffHeader } from '../sign-in/staff-header.tsx'
import type { StaffSession } from '../sign-in/use-staff-session.ts'
import { AwardsSection } from './awards-section.tsx'
import { PayoutBatchesSection } from './payout-batches-section.tsx'
import { UncashedChecksSection } from './uncashed-checks-section.tsx'

/** The page's parts, in order: each a box with its heading, and a link to it under the title. */
const PARTS = [
  { id: 'payouts-awards', label: 'Awards' },
  { id: 'payouts-batches', label: 'Payout batches' },
  { id: 'payouts-uncashed', label: 'Checks not cashed' },
] as const
type PartId = (typeof PARTS)[number]['id']

/**
 * The app's payouts: the awards on its filed claims (imported from the provider's file, or shared
 * from a settlement), then the payout batches that pay each claimant their net, then the checks not
 * cashed. Setting awards needs the app's decide right (a paralegal); the batches need its payments right
 * (an accountant). A long page on a phone: the links under the title go straight to each part.
 */
export function PayoutsPage({
  config,
  session,
}: {
  config: FormConfig
  session: StaffSession & { account: StaffAccountView }
}) {
  const { slug, displayName } = config
  const canDecide = canDecideApp(session.account, slug)
  const canPay = canPayApp(session.account, slug)
  const title = `${displayName} Payouts`
  useEffect(() => {
    document.title = title
  }, [title])
  // an award set changes what a payout batch could take now
  const [awardChanges, setAwardChanges] = useState(0)
  const headings = useRef<Partial<Record<PartId, HTMLHeadingElement | null>>>({})
  const headingRef = (part: PartId) => (heading: HTMLHeadingElement | null) => {
    headings.current[part] = heading
  }
  // to the part's heading, focus and all, without touching the address
  const goTo = (event: MouseEvent<HTMLAnchorElement>, part: PartId) => {
    event.preventDefault()
    headings.current[part]?.focus()
  }

  return (
    <article className="card filing-settings payouts">
      <StaffHeader
        title={title}
        lead="Awards on filed claims, then the payments to claimants"
        session={session}
      />
      <div className="card-body">
        <nav aria-label={`${displayName} pages`} className="batch-nav">
          <Link to={`/${slug}-admin`}>Back to the {displayName} dashboard</Link>
          <Link to={`/${slug}-admin/batches`}>Notices and filing</Link>
        </nav>
        {canDecide || canPay ? (
          <>
            <nav aria-label="On this page" className="page-parts">
              <ul>
                {PARTS.map((part) => (
                  <li key={part.id}>
                    <a href={`#${part.id}`} onClick={(event) => goTo(event, part.id)}>
                      {part.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <AwardsSection
              id="payouts-awards"
              headingRef={headingRef('payouts-awards')}
              slug={slug}
              displayName={displayName}
              canDecide={canDecide}
              canPay={canPay}
              onChanged={() => setAwardChanges((n) => n + 1)}
              onUnauthorized={session.expired}
            />
            <PayoutBatchesSection
              id="payouts-batches"
              headingRef={headingRef('payouts-batches')}
              slug={slug}
              account={session.account}
              canPay={canPay}
              loadKey={String(awardChanges)}
              onUnauthorized={session.expired}
            />
            <UncashedChecksSection
              id="payouts-uncashed"
              headingRef={headingRef('payouts-uncashed')}
              slug={slug}
              onUnauthorized={session.expired}
            />
          </>
        ) : (
          <p className="alert" role="alert">
            Payouts need the app&apos;s decide right (awards) or its payments right (batches), which an admin
            grants.
          </p>
        )}
      </div>
    </article>
  )
}
