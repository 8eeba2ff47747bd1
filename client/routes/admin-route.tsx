import { canSeeApp } from '../../src/api/staff.ts'
import { useFormConfig } from '../forms/use-form-config.ts'
import { AppDashboard } from '../staff/app-dashboard.tsx'
import { StaffArea } from '../staff/staff-area.tsx'
import { Loading } from '../ui/loading.tsx'
import { NotFoundRoute } from './not-found-route.tsx'

/** /{app}-admin: the login gate, then the app's dashboard, drawn from its config. Every app is gated. */
export function AdminRoute({ slug }: { slug: string }) {
  const state = useFormConfig(slug)
  if (state.status === 'loading') return <Loading />
  if (state.status === 'missing') return <NotFoundRoute />
  if (state.status === 'failed') {
    return (
      <section className="card notice" role="alert">
        <h1>This dashboard could not be loaded</h1>
        <p>{state.message}. Please reload the page in a moment.</p>
      </section>
    )
  }
  const { config } = state
  return (
    <StaffArea
      gateTitle={`${config.displayName} Admin Access`}
      app={config.slug}
      allows={(account) => canSeeApp(account, config.slug)}
    >
      {(session) => <AppDashboard config={config} session={session} />}
    </StaffArea>
  )
}
