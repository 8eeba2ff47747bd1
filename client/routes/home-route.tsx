import { lazy, Suspense } from 'react'
import { useLocation } from '../routing/router.tsx'
import { IntakePage } from '../intake/intake-page.tsx'
import { Loading } from '../ui/loading.tsx'

// staff pages are their own chunk: claimants never download them
const IntakeAdminView = lazy(async () => ({
  default: (await import('../staff/intake-admin-view.tsx')).IntakeAdminView,
}))

/** '/', or with ?key=… the staff view of all main-form submissions. */
export function HomeRoute() {
  const searchParams = new URLSearchParams(useLocation().search)
  // the key only picks the screen: its value is never checked or sent; the server's login decides access
  if (searchParams.has('key')) {
    return (
      <Suspense fallback={<Loading />}>
        <IntakeAdminView />
      </Suspense>
    )
  }
  return <IntakePage />
}
