import { lazy, Suspense, useEffect } from 'react'
import { Navigate, useLocation } from '../routing/router.tsx'
import { Loading } from '../ui/loading.tsx'
import { NotFoundRoute } from './not-found-route.tsx'
import { preloadClaimPage } from './preload-claim-page.ts'

const ClaimRoute = lazy(async () => ({ default: (await import('./claim-route.tsx')).ClaimRoute }))
const SuccessRoute = lazy(async () => ({ default: (await import('./success-route.tsx')).SuccessRoute }))
// staff pages are their own chunk: claimants never download them
const AdminRoute = lazy(async () => ({ default: (await import('./admin-route.tsx')).AdminRoute }))

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** Splits '/{page}' into the app's slug and which of its pages is meant. */
export function AppPageRoute({ page }: { page: string }) {
  const { search } = useLocation()
  const isClaimPage = SLUG.test(page) && !page.endsWith('-admin') && !page.endsWith('-success')
  useEffect(() => {
    if (isClaimPage) preloadClaimPage(page)
  }, [isClaimPage, page])
  // app addresses are lowercase: /Brigit is /brigit (the server redirects a first visit the same way)
  if (page !== page.toLowerCase() && SLUG.test(page.toLowerCase())) {
    return <Navigate to={`/${page.toLowerCase()}${search}`} replace />
  }
  if (!SLUG.test(page)) return <NotFoundRoute />
  if (page.endsWith('-admin')) {
    const slug = page.slice(0, -'-admin'.length)
    return (
      <Suspense fallback={<Loading />}>
        <AdminRoute key={slug} slug={slug} />
      </Suspense>
    )
  }
  const isSuccess = page.endsWith('-success')
  const slug = isSuccess ? page.slice(0, -'-success'.length) : page
  return (
    <Suspense fallback={<Loading />}>
      {isSuccess ? <SuccessRoute key={slug} slug={slug} /> : <ClaimRoute key={slug} slug={slug} />}
    </Suspense>
  )
}
