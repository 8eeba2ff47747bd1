import { Outlet } from 'react-router-dom'
import { ErrorBoundary } from './error-route.tsx'

export function Layout() {
  return (
    <main className="page">
      <ErrorBoundary>
        <Outlet />
      </ErrorBoundary>
    </main>
  )
}
