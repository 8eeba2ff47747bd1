import { Suspense } from 'react'
import { Outlet } from 'react-router-dom'
import { Loading } from '../ui/loading.tsx'
import { ErrorBoundary } from './error-boundary.tsx'

export function Layout() {
  return (
    <main className="page">
      {/* also catches a lazy page whose chunk failed to download */}
      <ErrorBoundary>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
    </main>
  )
}
