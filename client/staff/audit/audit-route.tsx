import { StaffArea } from '../sign-in/staff-area.tsx'
import { AuditLogPage } from './audit-log-page.tsx'

/** /staff/audit: admins only; who did what on the staff pages. */
export function AuditRoute() {
  return (
    <StaffArea gateTitle="Audit Log" allows={(account) => account.role === 'admin'}>
      {(session) => <AuditLogPage session={session} />}
    </StaffArea>
  )
}
