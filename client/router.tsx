import { lazy } from 'react'
import { AppPageRoute } from './routes/app-page-route.tsx'
import { HomeRoute } from './routes/home-route.tsx'
import { Layout } from './routes/layout.tsx'
import { NotFoundRoute } from './routes/not-found-route.tsx'
import { INTAKE_ADDRESS } from './staff/intakes/intake-address.ts'
import { Router, useLocation } from './routing/router.tsx'

const ViewAgreementRoute = lazy(async () => ({
  default: (await import('./routes/view-agreement-route.tsx')).ViewAgreementRoute,
}))
const ThankYouRoute = lazy(async () => ({
  default: (await import('./routes/thank-you-route.tsx')).ThankYouRoute,
}))
const ConfirmRoute = lazy(async () => ({
  default: (await import('./routes/confirm-route.tsx')).ConfirmRoute,
}))
const CureRoute = lazy(async () => ({
  default: (await import('./routes/cure-route.tsx')).CureRoute,
}))
const UnsubscribeRoute = lazy(async () => ({
  default: (await import('./routes/unsubscribe-route.tsx')).UnsubscribeRoute,
}))
const MilitaryRoute = lazy(async () => ({
  default: (await import('./routes/military-route.tsx')).MilitaryRoute,
}))
const AuditRoute = lazy(async () => ({
  default: (await import('./staff/audit/audit-route.tsx')).AuditRoute,
}))

const FunnelRoute = lazy(async () => ({
  default: (await import('./staff/funnel/funnel-route.tsx')).FunnelRoute,
}))
const FilingRoute = lazy(async () => ({
  default: (await import('./staff/filing/filing-route.tsx')).FilingRoute,
}))
const ClusterRoute = lazy(async () => ({
  default: (await import('./staff/claims/cluster-route.tsx')).ClusterRoute,
}))
const BatchesRoute = lazy(async () => ({
  default: (await import('./staff/filing/batches-route.tsx')).BatchesRoute,
}))
const PayoutsRoute = lazy(async () => ({
  default: (await import('./staff/payouts/payouts-route.tsx')).PayoutsRoute,
}))

const StaffHome = lazy(async () => ({
  default: (await import('./staff/accounts/staff-home.tsx')).StaffHome,
}))
const AccountsPage = lazy(async () => ({
  default: (await import('./staff/accounts/accounts-page.tsx')).AccountsPage,
}))
const OwnAccountPage = lazy(async () => ({
  default: (await import('./staff/accounts/own-account-page.tsx')).OwnAccountPage,
}))
const AcceptInvitePage = lazy(async () => ({
  default: (await import('./staff/accounts/accept-invite-page.tsx')).AcceptInvitePage,
}))
const TwoFactorPage = lazy(async () => ({
  default: (await import('./staff/two-factor/two-factor-page.tsx')).TwoFactorPage,
}))
const WebhooksPage = lazy(async () => ({
  default: (await import('./staff/webhooks/webhooks-page.tsx')).WebhooksPage,
}))

/** Every page, by its address. Lazy pages suspend inside Layout. */
export function AppRouter() {
  return (
    <Router>
      <Layout>
        <Page />
      </Layout>
    </Router>
  )
}

function Page() {
  const { pathname } = useLocation()
  switch (pathname) {
    case '/':
      return <HomeRoute />
    case '/view-agreement':
      return <ViewAgreementRoute />
    case '/thank-you':
      return <ThankYouRoute />
    case '/military-analysis':
      return <MilitaryRoute />
    case '/confirm':
      return <ConfirmRoute />
    case '/cure':
      return <CureRoute />
    case '/unsubscribe':
      return <UnsubscribeRoute />
    case '/staff/audit':
      return <AuditRoute />
    case '/staff/funnel':
      return <FunnelRoute />
    case '/staff':
      return <StaffHome />
    case '/staff/accounts':
      return <AccountsPage />
    case '/staff/account':
      return <OwnAccountPage />
    case '/staff/invite':
      return <AcceptInvitePage kind="invite" />
    case '/staff/setup':
      return <AcceptInvitePage kind="setup" />
    case '/staff/two-factor':
      return <TwoFactorPage />
    case '/staff/webhooks':
      return <WebhooksPage />
  }
  // an intake's own address is the main page's admin view with it open: the same element as at /?key=…,
  // so opening and closing an intake keeps the view (its search, its page) as it is
  if (INTAKE_ADDRESS.test(pathname)) return <HomeRoute />
  // the claims tied to a claim by its identity keys, /{app}-admin/claims/123/cluster
  const cluster = /^\/([a-z0-9-]+)-admin\/claims\/(\d{1,15})\/cluster$/.exec(pathname)
  if (cluster) return <ClusterRoute slug={cluster[1]!} claimId={Number(cluster[2])} />
  // a claim's own address on its dashboard, /{app}-admin/claims/123, is that dashboard with it open
  const claimPage = /^\/([^/]+-admin)\/claims\/\d{1,15}$/.exec(pathname)?.[1]
  if (claimPage !== undefined) return <AppPageRoute page={decodeURIComponent(claimPage)} />
  // an app's filing settings, /{app}-admin/filing
  const filingPage = /^\/([a-z0-9-]+)-admin\/filing$/.exec(pathname)?.[1]
  if (filingPage !== undefined) return <FilingRoute slug={filingPage} />
  // its notices of dispute and filing batches, /{app}-admin/batches
  const batchesPage = /^\/([a-z0-9-]+)-admin\/batches$/.exec(pathname)?.[1]
  if (batchesPage !== undefined) return <BatchesRoute slug={batchesPage} />
  // its awards and payout batches, /{app}-admin/payouts
  const payoutsPage = /^\/([a-z0-9-]+)-admin\/payouts$/.exec(pathname)?.[1]
  if (payoutsPage !== undefined) return <PayoutsRoute slug={payoutsPage} />
  // /{app}, /{app}-success and /{app}-admin are one segment; AppPageRoute tells them apart
  const page = /^\/([^/]+)$/.exec(pathname)?.[1]
  return page === undefined ? <NotFoundRoute /> : <AppPageRoute page={decodeURIComponent(page)} />
}
