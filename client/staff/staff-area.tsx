import type { ReactNode } from 'react'
import { Loading } from '../ui/loading.tsx'
import { StaffGate } from './staff-gate.tsx'
import { useStaffSession, type StaffSession } from './use-staff-session.ts'

/** Shows the gate until the server says this browser has a staff session, then the staff screen. */
export function StaffArea({
  gateTitle,
  app,
  children,
}: {
  gateTitle: string
  app?: string
  children: (session: StaffSession) => ReactNode
}) {
  const session = useStaffSession()
  if (session.status === 'checking') return <Loading label="Checking access..." />
  if (session.status === 'signed-out') {
    return (
      <StaffGate
        title={gateTitle}
        {...(app ? { app } : {})}
        problem={session.problem}
        onSignedIn={session.signedIn}
      />
    )
  }
  return children(session)
}
