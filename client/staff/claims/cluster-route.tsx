import { AppStaffArea } from '../sign-in/app-staff-area.tsx'
import { FraudClusterPage } from './fraud-cluster-page.tsx'

/** /{app}-admin/claims/{id}/cluster: the claims tied to one claim by its identity keys, for staff who may see the app. */
export function ClusterRoute({ slug, claimId }: { slug: string; claimId: number }) {
  return (
    <AppStaffArea slug={slug} gate="Admin Access">
      {(config, session) => <FraudClusterPage config={config} claimId={claimId} session={session} />}
    </AppStaffArea>
  )
}
