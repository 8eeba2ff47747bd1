import { StaffArea } from '../sign-in/staff-area.tsx'
import { FunnelPage } from './funnel-page.tsx'

/** /staff/funnel: admins only; where the claims come from, source by source. */
export function FunnelRoute() {
  return (
    <StaffArea gateTitle="Funnel" allows={(account) => account.role === 'admin'}>
      {(session) => <FunnelPage session={session} />}
    </StaffArea>
  )
}
