import type { ClaimantStatus } from '../../src/api/agreements.ts'
import type { ClaimantState } from '../../src/review-config.ts'
import { Link } from '../routing/router.tsx'
import { useText } from '../i18n/use-text.ts'
import { ReferenceLine } from '../ui/reference-line.tsx'
import { Step2Links } from '../ui/step2-links.tsx'

/** What each state says to the claimant. */
const STATE_TEXTS: Record<ClaimantState, { label: string; detail: string }> = {
  received: { label: 'Received', detail: 'We have your claim and are reviewing it.' },
  attention: { label: 'Needs your attention', detail: 'Your claim needs a correction before it can go on.' },
  approved: { label: 'Approved', detail: 'Your claim was approved. We will write when it is filed.' },
  filed: { label: 'Filed', detail: 'Your claim was filed in arbitration.' },
  awarded: {
    label: 'Awarded',
    detail: 'Your claim won an award. We will ask you how you want to be paid.',
  },
  closed: { label: 'Closed', detail: 'This claim is closed. Write to us with any questions.' },
}

/** The claimant's claims as they should see them, and the apps they chose but have not filed yet. */
export function ClaimantStatusPanel({ status }: { status: ClaimantStatus }) {
  const t = useText()
  if (status.claims.length === 0 && status.pending.length === 0 && status.others.length === 0) return null
  return (
    <section className="claimant-status" aria-labelledby="claimant-status-heading">
      <h2 id="claimant-status-heading">{t('Where your claims stand')}</h2>
      {status.reference ? <ReferenceLine reference={status.reference} /> : null}
      {status.claims.length > 0 ? (
        <ul className="status-list">
          {status.claims.map((claim) => {
            const text = STATE_TEXTS[claim.state]
            return (
              <li key={claim.claimId} className={`status-item status-${claim.state}`}>
                <p className="status-line">
                  <strong>{claim.appName}</strong> <span className="status-badge">{t(text.label)}</span>
                </p>
                <p className="status-detail">{t(text.detail)}</p>
                {claim.caseNumber ? (
                  <p className="status-detail">
                    {t('Case number with the arbitration provider: {caseNumber}', {
                      caseNumber: claim.caseNumber,
                    })}
                  </p>
                ) : null}
                {claim.cureUrl ? (
                  <Link className="step2-button" to={claim.cureUrl}>
                    {t('Fix your {app} claim', { app: claim.appName })}
                  </Link>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : null}
      {status.pending.length > 0 ? (
        <div className="next-steps">
          <h3>{t('Not filed yet')}</h3>
          <p>{t('You told us you used these apps. Each needs a short claim of its own.')}</p>
          <Step2Links steps={status.pending} />
        </div>
      ) : null}
      {status.others.length > 0 ? (
        <div className="other-apps">
          <h3>{t('Used another app?')}</h3>
          <p>{t('You can add a claim for any of these apps too:')}</p>
          <Step2Links steps={status.others} look="list" />
        </div>
      ) : null}
    </section>
  )
}
