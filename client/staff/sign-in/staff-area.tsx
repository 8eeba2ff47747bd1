import type { ReactNode } from 'react'
import { Loading } from '../../ui/loading.tsx'
import { StaffGate } from './staff-gate.tsx'
import type { StaffAccountView } from '../shared/staff-api.ts'
import { useStaffSession, type StaffSession } from './use-staff-session.ts'
import { StaffHeader } from './staff-header.tsx'

/**
 * Shows the gate until the server says this browser has a staff session, then the staff screen when the
 * account may see it (`allows`), else a notice. The server checks every call again; this only spares
 * the person a screen of refusals.
 */
export function StaffArea({
  gateTitle,
  app,
  allows = () => true,
  children,
}: {
  gateTitle: string
  app?: string
  allows?: (account: StaffAccountView) => boolean
  children: (session: StaffSession & { account: StaffAccountView }) => ReactNode
}) {
  const session = useStaffSession()
  if (session.status === 'checking') return <Loading label="Checking access..." />
  const { account } = session
  if (session.status === 'signed-out' || !account) {
    return (
      <StaffGate
        title={gateTitle}
        {...(app ? { app } : {})}
        problem={session.problem}
        onSignedIn={session.signedIn}
      />
    )
  }
  if (!allows(account)) {
    return (
      <section className="card staff-gate">
        <StaffHeader title={gateTitle} session={session} />
        <div className="card-body">
          <p className="alert" role="alert">
            Your account does not have access to this page. Ask an admin of your firm if you need it.
          </p>
        </div>
      </section>
    )
  }
  return children({ ...session, account })
}
