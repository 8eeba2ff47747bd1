import { Link } from 'react-router-dom'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'

/** What the claimant is told before the form; every figure comes from firm.json. */
export function LandingCopy() {
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
        You may be entitled to <strong>up to ${maxRecoveryPerAppUsd} per app used</strong>. Proof of use is
        required.
      </p>
      <ul className="landing-terms">
        <li>
          Our fee is a {contingencyPercent}% contingency of any recovery (or less if state law requires), plus
          reasonable case costs.
        </li>
        <li>You owe nothing if there is no recovery.</li>
        <li>
          Signing less than {filingDeadlineWarningDays} days before the filing deadline may be too late, so
          please do not wait.
        </li>
        <li>We keep your file for {retentionYears} years.</li>
      </ul>
      <div className="landing-links">
        <p>
          Already signed up? <Link to="/view-agreement">View My Agreement</Link>
        </p>
        <p>
          Questions? <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
        </p>
      </div>
    </div>
  )
}
