import { lazy } from 'react'
import { BrowserRouter, Route, Routes } from 'react-router-dom'
import { AppPageRoute } from './routes/app-page-route.tsx'
import { HomeRoute } from './routes/home-route.tsx'
import { Layout } from './routes/layout.tsx'
import { NotFoundRoute } from './routes/not-found-route.tsx'

const ViewAgreementRoute = lazy(async () => ({
  default: (await import('./routes/view-agreement-route.tsx')).ViewAgreementRoute,
}))
const ThankYouRoute = lazy(async () => ({
  default: (await import('./routes/thank-you-route.tsx')).ThankYouRoute,
}))
const MilitaryRoute = lazy(async () => ({
  default: (await import('./routes/military-route.tsx')).MilitaryRoute,
}))

/**
 * Every page. Declarative routes, not createBrowserRouter: we use no loaders or actions, and the data
 * router's code is about 16 KB gzipped on every claimant's phone. Lazy pages suspend inside Layout.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Layout />}>
          <Route path="/" element={<HomeRoute />} />
          <Route path="/view-agreement" element={<ViewAgreementRoute />} />
          <Route path="/thank-you" element={<ThankYouRoute />} />
          <Route path="/military-analysis" element={<MilitaryRoute />} />
          {/* /{app}, /{app}-success and /{app}-admin are one dynamic segment; AppPageRoute tells them apart */}
          <Route path="/:page" element={<AppPageRoute />} />
          <Route path="*" element={<NotFoundRoute />} />
        </Route>
      </Routes>
    </BrowserRouter>
  )
}
