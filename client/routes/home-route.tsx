import { lazy, Suspense } from 'react'
import { useLocation } from '../routing/router.tsx'
import { IntakePage } from '../intake/intake-page.tsx'
import { Loading } from '../ui/loading.tsx'
import { INTAKE_ADDRESS } from '../staff/intakes/intake-address.ts'

// staff pages are their own chunk: claimants never download them
const IntakeAdminView = lazy(async () => ({
  default: (await import('../staff/intakes/intake-admin-view.tsx')).IntakeAdminView,
}))

/** '/', or with ?key=… (and at an intake's address, /staff/intake/{id}) the staff view of all main-form submissions. */
export function HomeRoute() {
  const { pathname, search } = useLocation()
  // the key only picks the screen: its value is never checked or sent; the server's login decides access
  if (new URLSearchParams(search).has('key') || INTAKE_ADDRESS.test(pathname)) {
    return (
      <Suspense fallback={<Loading />}>
        <IntakeAdminView />
      </Suspense>
    )
  }
  return <IntakePage />
}
