import { useEffect } from 'react'
import { useLocation } from '../routing/router.tsx'
import { useText } from '../i18n/use-text.ts'
import { useIntakeConfig } from '../intake/use-intake-config.ts'
import { pushTrackingEventsOnce } from '../tracking.ts'
import { Confirmation } from '../ui/confirmation.tsx'

/** /thank-you: the main form's confirmation, and its tracking events for the intake just sent. */
export function ThankYouRoute() {
  const t = useText()
  const intakeId = (useLocation().state as { intakeId?: number } | null)?.intakeId
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

  return <Confirmation line={t('Thank you. We will be in touch with next steps.')} />
}
