import { formatCents } from '../../src/money.ts'
import { useLocale } from '../i18n/use-text.ts'
import type { ClaimantPayout } from './api.ts'
import { ConsentForm } from './consent-form.tsx'
import { PayoutChoiceForm, useChoiceLine } from './payout-choice-form.tsx'
import { W9Form } from './w9-form.tsx'

/**
 * "Your payment" for one claim with an award: what it comes to, the settlement consent when one is
 * needed, how the claimant is paid and their W-9, each changeable until a payout batch takes the claim.
 */
export function PaymentSection({
  payout,
  downloadKey,
  onSaved,
}: {
  payout: ClaimantPayout
  downloadKey: string
  onSaved: (payout: ClaimantPayout) => void
}) {
  const { locale, t } = useLocale()
  const choiceLine = useChoiceLine()
  const money = (cents: number) => formatCents(cents, locale)
  // what is taken from the award, with a minus; nothing taken reads as a plain $0.00
  const less = (cents: number) => (cents === 0 ? money(0) : `-${money(cents)}`)
  const headingId = `your-payment-${payout.claimId}`
  const { amounts } = payout
  return (
    <section className="your-payment" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('Your payment: {app}', { app: payout.appName })}</h3>
      {amounts ? (
        <>
          <dl className="payout-amounts">
            <dt>{t('Award')}</dt>
            <dd>{money(amounts.grossCents)}</dd>
            <dt>{t('Attorney fee ({percent}%)', { percent: amounts.feePercent })}</dt>
            <dd>{less(amounts.feeCents)}</dd>
            <dt>{t('Case costs')}</dt>
            <dd>{less(amounts.costsCents)}</dd>
            <dt>{t('Held back for the IRS')}</dt>
            <dd>{less(amounts.withholdingCents)}</dd>
            <dt className="payout-net">{amounts.isEstimate ? t('Estimated net to you') : t('Net to you')}</dt>
            <dd className="payout-net">{money(amounts.netCents)}</dd>
          </dl>
          <CostsParts amounts={amounts} money={money} />
          {amounts.isEstimate ? (
            <p className="field-help">
              {t('An estimate: case costs may still be taken from the award, as your agreement allows.')}
            </p>
          ) : null}
          {amounts.isBackupWithholding ? (
            <p className="field-help">
              {t('24% is held back for the IRS until we have your W-9. Fill it in below to be paid in full.')}
            </p>
          ) : null}
        </>
      ) : (
        <p>{t('We will write to you with the amounts of this payment.')}</p>
      )}
      {payout.consent ? (
        <ConsentForm payout={payout} consent={payout.consent} downloadKey={downloadKey} onSaved={onSaved} />
      ) : null}
      {payout.choice ? (
        <p className="payout-done">{t('You are paid by: {choice}', { choice: choiceLine(payout.choice) })}</p>
      ) : null}
      {payout.w9 ? (
        <p className="payout-done">
          {t('Your W-9 is on file: {name}, {number}', { name: payout.w9.legalName, number: payout.w9.tin })}
        </p>
      ) : null}
      {payout.canChange ? (
        <>
          <PayoutChoiceForm payout={payout} downloadKey={downloadKey} onSaved={onSaved} />
          <W9Form payout={payout} downloadKey={downloadKey} onSaved={onSaved} />
        </>
      ) : (
        <p>{t('Your payment is being prepared, so how you are paid can no longer change.')}</p>
      )}
    </section>
  )
}

/**
 * Where the case costs come from, under the amounts, once the firm advanced costs on the claim: the
 * costs the firm advanced on this claim, its share of costs shared among the claims paid together, and
 * what the award could not cover (the claimant does not owe it).
 */
function CostsParts({
  amounts,
  money,
}: {
  amounts: NonNullable<ClaimantPayout['amounts']>
  money: (cents: number) => string
}) {
  const { t } = useLocale()
  if (amounts.claimCostsCents === 0) return null
  return (
    <ul className="payout-costs" aria-label={t('Case costs')}>
      <li>{t('Advanced by the firm on your claim: {amount}', { amount: money(amounts.claimCostsCents) })}</li>
      {amounts.sharedCostsCents > 0 ? (
        <li>
          {t('Your share of costs shared among the claims paid with yours: {amount}', {
            amount: money(amounts.sharedCostsCents),
          })}
        </li>
      ) : null}
      {amounts.costsWaivedCents > 0 ? (
        <li>
          {t('More than the award left after the fee, which you do not owe: {amount}', {
            amount: money(amounts.costsWaivedCents),
          })}
        </li>
      ) : null}
    </ul>
  )
}
