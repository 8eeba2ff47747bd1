import { AppStaffArea } from '../sign-in/app-staff-area.tsx'
import { PayoutsPage } from './payouts-page.tsx'

/** /{app}-admin/payouts: the app's awards and payout batches, for staff who may see the app. */
export function PayoutsRoute({ slug }: { slug: string }) {
  return (
    <AppStaffArea slug={slug} gate="Payouts">
      {(config, session) => <PayoutsPage config={config} session={session} />}
    </AppStaffArea>
  )
}
