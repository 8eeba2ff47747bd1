import { useEffect } from 'react'
import type { Step2Link } from '../../src/journey-config.ts'
import { useLocation } from '../routing/router.tsx'
import { Step2Links } from '../ui/step2-links.tsx'
import { useText } from '../i18n/use-text.ts'
import { useIntakeConfig } from '../intake/use-intake-config.ts'
import { pushTrackingEventsOnce } from '../tracking.ts'
import { Confirmation } from '../ui/confirmation.tsx'
import { ReferenceLine } from '../ui/reference-line.tsx'

/** What the intake form hands this page: the intake just sent (kept by the tab's history, so a reload keeps it). */
interface SentIntake {
  intakeId?: number
  reference?: string
  steps?: Step2Link[]
}

/**
 * /thank-you: the main form's confirmation with the claimant's reference and a button to each chosen
 * app's Step 2 form (its link pre-fills the form), and the tracking events for the intake just sent.
 */
export function ThankYouRoute() {
  const t = useText()
  const { intakeId, reference, steps = [] } = (useLocation().state as SentIntake | null) ?? {}
  // only an intake just submitted in this tab counts; a bookmarked visit fires nothing and loads nothing
  const hasIntake = intakeId !== undefined
  const state = useIntakeConfig({ isWanted: hasIntake })
  const config = state.status === 'ready' ? state.config : undefined

  useEffect(() => {
    document.title = t('Thank You')
  }, [t])
  useEffect(() => {
    if (config && intakeId !== undefined)
      pushTrackingEventsOnce(`intake:${intakeId}`, config.tracking.thankYou, { form: 'intake' })
  }, [config, intakeId])

  return (
    <Confirmation line={t('Thank you. We will be in touch with next steps.')}>
      {reference ? (
        <>
          <ReferenceLine reference={reference} />
          <p>{t('We e-mailed you a copy of your signed agreement.')}</p>
        </>
      ) : null}
      {steps.length > 0 ? (
        <div className="next-steps">
          <h2>{t('Next: one claim per app')}</h2>
          <p>
            {t(
              'For each app you chose, file a short claim with a screenshot of your bank statement. Your name and contact are filled in for you.',
            )}
          </p>
          <Step2Links steps={steps} />
          <p>{t('The same links are in the e-mail, so you can come back to them later.')}</p>
        </div>
      ) : null}
    </Confirmation>
  )
}
