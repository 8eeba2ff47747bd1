import { lazy, Suspense } from 'react'
import { useParams } from 'react-router-dom'
import { Loading } from '../ui/loading.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

const ClaimRoute = lazy(async () => ({ default: (await import('./claim-route.tsx')).ClaimRoute }))
const SuccessRoute = lazy(async () => ({ default: (await import('./success-route.tsx')).SuccessRoute }))

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** Splits '/{page}' into the app's slug and which of its pages is meant. */
export function AppPageRoute() {
  const { page = '' } = useParams()
  if (!SLUG.test(page) || page.endsWith('-admin')) return <NotFoundRoute />
  const isSuccess = page.endsWith('-success')
  const slug = isSuccess ? page.slice(0, -'-success'.length) : page
  return (
    <Suspense fallback={<Loading />}>
      {isSuccess ? <SuccessRoute key={slug} slug={slug} /> : <ClaimRoute key={slug} slug={slug} />}
    </Suspense>
  )
}
