import { useEffect } from 'react'
import { Link, useLocation } from 'react-router-dom'
import { useFormConfig } from '../forms/use-form-config.ts'
import { pushTrackingEventsOnce } from '../tracking.ts'
import { Loading } from '../ui/loading.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

/** /{app}-success: the confirmation, and the app's tracking events for the claim just sent. */
export function SuccessRoute({ slug }: { slug: string }) {
  const state = useFormConfig(slug)
  const claimId = (useLocation().state as { claimId?: number } | null)?.claimId
  const config = state.status === 'ready' ? state.config : undefined

  useEffect(() => {
    if (!config) return
    document.title = `Thank You - ${config.success.line}`
    // only a claim just submitted in this tab counts; a bookmarked visit fires nothing
    if (claimId !== undefined)
      pushTrackingEventsOnce(`${slug}:${claimId}`, config.tracking.success, { app: slug })
  }, [config, claimId, slug])

  if (state.status === 'loading') return <Loading />
  if (!config) return <NotFoundRoute />
  return (
    <section className="card">
      <header className="card-header success-header">
        <span className="check" aria-hidden="true">
          ✓
        </span>
        <h1>Thank You</h1>
        <p>{config.success.line}</p>
      </header>
      <div className="card-body">
        <div className="next-steps">
          <h2>What happens next</h2>
          <p>Our legal team will review your submission and documentation.</p>
          <p>
            We will contact you if we need more information, or when we are ready to proceed with your claim.
          </p>
          {config.success.note ? <p>{config.success.note}</p> : null}
        </div>
        <p>
          <Link to="/">Return to the home page</Link>
        </p>
      </div>
    </section>
  )
}
