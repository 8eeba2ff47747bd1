import { useEffect } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { useIntakeConfig } from '../intake/use-intake-config.ts'
import { pushTrackingEventsOnce } from '../tracking.ts'
import { FirmLogo } from '../ui/firm-logo.tsx'

/** /thank-you: the main form's confirmation, and its tracking events for the intake just sent. */
export function ThankYouRoute() {
  const intakeId = (useLocation().state as { intakeId?: number } | null)?.intakeId
  // only an intake just submitted in this tab counts; a bookmarked visit fires nothing and loads nothing
  const hasIntake = intakeId !== undefined
  const state = useIntakeConfig({ isWanted: hasIntake })
  const config = state.status === 'ready' ? state.config : undefined

  useEffect(() => {
    document.title = 'Thank You'
  }, [])
  useEffect(() => {
    if (config && intakeId !== undefined)
      pushTrackingEventsOnce(`intake:${intakeId}`, config.tracking.thankYou, { form: 'intake' })
  }, [config, intakeId])

  return (
    <section className="card thank-you">
      <header className="card-header success-header">
        <span className="check" aria-hidden="true">
          <svg viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="3">
            <path d="M5 12.5 L10 17.5 L19 7" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <h1>Thank You</h1>
      </header>
      <div className="card-body thank-you-body">
        <FirmLogo className="thank-you-logo" size={88} />
        <p className="thank-you-line">Thank you. We will be in touch with next steps.</p>
        <p className="thank-you-contact">
          Questions? Contact us at{' '}
          <a href={`mailto:${FIRM_SETTINGS.contactEmail}`}>{FIRM_SETTINGS.contactEmail}</a>.
        </p>
        <p>
          <Link to="/">Return to the home page</Link>
        </p>
      </div>
    </section>
  )
}
