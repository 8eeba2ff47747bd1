import { AppStaffArea } from '../sign-in/app-staff-area.tsx'
import { FilingSettingsPage } from './filing-settings-page.tsx'

/** /{app}-admin/filing: the app's filing settings, read-only, for staff who may see the app. */
export function FilingRoute({ slug }: { slug: string }) {
  return (
    <AppStaffArea slug={slug} gate="Filing Settings">
      {(config, session) => <FilingSettingsPage slug={config.slug} session={session} />}
    </AppStaffArea>
  )
}
