import { Link } from '../routing/router.tsx'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { useText } from '../i18n/use-text.ts'

/** What the claimant is told before the form; every figure comes from firm.json. */
export function LandingCopy() {
  const t = useText()
  const {
    maxRecoveryPerAppUsd,
    contingencyPercent,
    filingDeadlineWarningDays,
    retentionYears,
    contactEmail,
  } = FIRM_SETTINGS
  return (
    <div className="landing-copy">
      <p className="landing-lead">
        {t('You may be entitled to')}{' '}
        <strong>{t('up to ${amount} per app used', { amount: maxRecoveryPerAppUsd })}</strong>.{' '}
        {t('Proof of use is required.')}
      </p>
      <ul className="landing-terms">
        <li>
          {t(
            'Our fee is a {percent}% contingency of any recovery (or less if state law requires), plus reasonable case costs.',
            { percent: contingencyPercent },
          )}
        </li>
        <li>{t('You owe nothing if there is no recovery.')}</li>
        <li>
          {t(
            'Signing less than {days} days before the filing deadline may be too late, so please do not wait.',
            { days: filingDeadlineWarningDays },
          )}
        </li>
        <li>{t('We keep your file for {years} years.', { years: retentionYears })}</li>
      </ul>
      <div className="landing-links">
        <p>
          {t('Already signed up?')} <Link to="/view-agreement">{t('View My Agreement')}</Link>
        </p>
        <p>
          {t('Questions?')} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </p>
      </div>
    </div>
  )
}
