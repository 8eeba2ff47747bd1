import { useEffect } from 'react'
import type { Step2Link } from '../../src/journey-config.ts'
import { Link, useLocation } from '../routing/router.tsx'
import { useFormConfig } from '../forms/use-form-config.ts'
import { useText } from '../i18n/use-text.ts'
import { pushTrackingEventsOnce } from '../tracking.ts'
import { Confirmation } from '../ui/confirmation.tsx'
import { Loading } from '../ui/loading.tsx'
import { Step2Links } from '../ui/step2-links.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

/** What the claim form hands this page: the server's 201 answer, kept in history state, never the URL. */
interface SuccessState {
  claimId?: number
  nextSteps?: Step2Link[]
}

/**
 * /{app}-success: the confirmation with the claim's number, the next app the claimant's main form
 * chose (its Step 2 link from the server), and the app's tracking events for the claim just sent.
 */
export function SuccessRoute({ slug }: { slug: string }) {
  const t = useText()
  const state = useFormConfig(slug)
  const { claimId, nextSteps = [] } = (useLocation().state as SuccessState | null) ?? {}
  const [next, ...later] = nextSteps
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
      {claimId !== undefined ? (
        <p className="claim-reference">
          {t('Your claim number is {id}. Please quote it when you contact us.', { id: claimId })}
        </p>
      ) : null}
      {next ? (
        <div className="next-app">
          <Link className="step2-button" to={next.path}>
            {t('Next: File your {app} claim', { app: next.appName })}
          </Link>
          {later.length > 0 ? (
            <>
              <p>{t('Then the other apps you chose:')}</p>
              <Step2Links steps={later} look="list" />
            </>
          ) : null}
        </div>
      ) : null}
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
