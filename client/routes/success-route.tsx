import { useEffect } from 'react'
import { useLocation } from '../routing/router.tsx'
import { useFormConfig } from '../forms/use-form-config.ts'
import { useText } from '../i18n/use-text.ts'
import { pushTrackingEventsOnce } from '../tracking.ts'
import { Confirmation } from '../ui/confirmation.tsx'
import { Loading } from '../ui/loading.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

/** /{app}-success: the confirmation, and the app's tracking events for the claim just sent. */
export function SuccessRoute({ slug }: { slug: string }) {
  const t = useText()
  const state = useFormConfig(slug)
  const claimId = (useLocation().state as { claimId?: number } | null)?.claimId
  const config = state.status === 'ready' ? state.config : undefined

  useEffect(() => {
    if (!config) return
    document.title = `${t('Thank You')} - ${config.success.line}`
    // only a claim just submitted in this tab counts; a bookmarked visit fires nothing
    if (claimId !== undefined)
      pushTrackingEventsOnce(`${slug}:${claimId}`, config.tracking.success, { app: slug })
  }, [config, claimId, slug, t])

  if (state.status === 'loading') return <Loading />
  if (!config) return <NotFoundRoute />
  return (
    <Confirmation line={config.success.line}>
      <div className="next-steps">
        <h2>{t('What happens next')}</h2>
        <p>
          {t(
            'We e-mailed you a copy of your signed agreement. Please open the e-mail and press "Confirm it was you", so we know you filed this claim yourself.',
          )}
        </p>
        <p>{t('Our legal team will review your submission and documentation.')}</p>
        <p>
          {t(
            'We will contact you if we need more information, or when we are ready to proceed with your claim.',
          )}
        </p>
        {config.success.note ? <p>{config.success.note}</p> : null}
      </div>
    </Confirmation>
  )
}
