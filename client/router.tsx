import { createBrowserRouter } from 'react-router-dom'
import { AppPageRoute } from './routes/app-page-route.tsx'
import { ErrorRoute } from './routes/error-route.tsx'
import { HomeRoute } from './routes/home-route.tsx'
import { Layout } from './routes/layout.tsx'
import { Loading } from './ui/loading.tsx'
import { NotFoundRoute } from './routes/not-found-route.tsx'

// /{app}, /{app}-success and /{app}-admin are one dynamic segment; AppPageRoute tells them apart
export const router = createBrowserRouter([
  {
    element: <Layout />,
    errorElement: <ErrorRoute />,
    hydrateFallbackElement: <Loading />,
    children: [
      { path: '/', element: <HomeRoute /> },
      {
        path: '/view-agreement',
        lazy: async () => ({
          Component: (await import('./routes/view-agreement-route.tsx')).ViewAgreementRoute,
        }),
      },
      {
        path: '/thank-you',
        lazy: async () => ({
          Component: (await import('./routes/thank-you-route.tsx')).ThankYouRoute,
        }),
      },
      {
        path: '/military-analysis',
        lazy: async () => ({
          Component: (await import('./routes/military-route.tsx')).MilitaryRoute,
        }),
      },
      { path: '/:page', element: <AppPageRoute /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
])
