import { AppDashboard } from '../staff/claims/app-dashboard.tsx'
import { AppStaffArea } from '../staff/sign-in/app-staff-area.tsx'

/** /{app}-admin: the login gate, then the app's dashboard, drawn from its config. Every app is gated. */
export function AdminRoute({ slug }: { slug: string }) {
  return (
    <AppStaffArea slug={slug} gate="Admin Access">
      {(config, session) => <AppDashboard config={config} session={session} />}
    </AppStaffArea>
  )
}
