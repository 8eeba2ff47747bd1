import { lazy, Suspense, useEffect, useState } from 'react'
import { AppError } from '../../src/app-error.ts'
import { useText } from '../i18n/use-text.ts'
import { loadClaimantPayouts, type ClaimantPayout } from './api.ts'

// its forms and signature pad are fetched only for a claimant with an award, most opening no payment
const PaymentSection = lazy(async () => ({ default: (await import('./payment-section.tsx')).PaymentSection }))

/**
 * The opened page's payments: one "Your payment" section per claim with an award, read with the page's
 * key in the page's language; nothing at all while the claimant has no award.
 */
export function YourPayments({ downloadKey }: { downloadKey: string }) {
  const t = useText()
  const [payouts, setPayouts] = useState<ClaimantPayout[]>([])
  const [failure, setFailure] = useState<string>()
  useEffect(() => {
    let isCurrent = true
    loadClaimantPayouts(downloadKey).then(
      (loaded) => {
        if (isCurrent) setPayouts(loaded.payouts)
      },
      (error: unknown) => {
        // a lapsed key says so in the server's words; the agreements above still show
        if (isCurrent)
          setFailure(
            error instanceof AppError && error.status < 500
              ? error.message
              : t('We could not load your payment. Please reload the page.'),
          )
      },
    )
    return () => {
      isCurrent = false
    }
  }, [downloadKey, t])
  const saved = (payout: ClaimantPayout) =>
    setPayouts((all) => all.map((one) => (one.claimId === payout.claimId ? payout : one)))
  if (failure) {
    return (
      <p className="alert" role="alert">
        {failure}
      </p>
    )
  }
  return (
    <Suspense fallback={null}>
      {payouts.map((payout) => (
        <PaymentSection key={payout.claimId} payout={payout} downloadKey={downloadKey} onSaved={saved} />
      ))}
    </Suspense>
  )
}
