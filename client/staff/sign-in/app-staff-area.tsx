import type { ReactNode } from 'react'
import { canSeeApp, type StaffAccountView } from '../../../src/api/staff.ts'
import type { FormConfig } from '../../../src/form-config.ts'
import { useFormConfig } from '../../forms/use-form-config.ts'
import { NotFoundRoute } from '../../routes/not-found-route.tsx'
import { Loading } from '../../ui/loading.tsx'
import { StaffArea } from './staff-area.tsx'
import type { StaffSession } from './use-staff-session.ts'

/**
 * A staff page of one app (/{app}-admin, /{app}-admin/filing): its config, then the sign-in gate titled
 * "{App} {gate}", then the page for an account that may see the app. An unknown app is not found.
 */
export function AppStaffArea({
  slug,
  gate,
  children,
}: {
  slug: string
  /** The gate's title after the app's name: "Admin Access", "Filing Settings". */
  gate: string
  children: (config: FormConfig, session: StaffSession & { account: StaffAccountView }) => ReactNode
}) {
  const state = useFormConfig(slug)
  if (state.status === 'loading') return <Loading />
  if (state.status === 'missing') return <NotFoundRoute />
  if (state.status === 'failed') {
    return (
      <section className="card notice" role="alert">
        <h1>This page could not be loaded</h1>
        <p>{state.message}. Please reload the page in a moment.</p>
      </section>
    )
  }
  const { config } = state
  return (
    <StaffArea
      gateTitle={`${config.displayName} ${gate}`}
      app={config.slug}
      allows={(account) => canSeeApp(account, config.slug)}
    >
      {(session) => children(config, session)}
    </StaffArea>
  )
}
