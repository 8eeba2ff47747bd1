import { AppStaffArea } from '../sign-in/app-staff-area.tsx'
import { BatchesPage } from './batches-page.tsx'

/** /{app}-admin/batches: the app's notices of dispute and filing batches, for staff who may see the app. */
export function BatchesRoute({ slug }: { slug: string }) {
  return (
    <AppStaffArea slug={slug} gate="Notices and Filing">
      {(config, session) => <BatchesPage config={config} session={session} />}
    </AppStaffArea>
  )
}
