import { canSeeApp } from '../../../src/api/staff.ts'
import { useFormConfig } from '../../forms/use-form-config.ts'
import { NotFoundRoute } from '../../routes/not-found-route.tsx'
import { Loading } from '../../ui/loading.tsx'
import { StaffArea } from '../staff-area.tsx'
import { FilingSettingsPage } from './filing-settings-page.tsx'

/** /{app}-admin/filing: the app's filing settings, read-only, for staff who may see the app. */
export function FilingRoute({ slug }: { slug: string }) {
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
      gateTitle={`${config.displayName} Filing Settings`}
      app={config.slug}
      allows={(account) => canSeeApp(account, config.slug)}
    >
      {(session) => <FilingSettingsPage slug={config.slug} session={session} />}
    </StaffArea>
  )
}
