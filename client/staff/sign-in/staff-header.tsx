import type { ReactNode } from 'react'
import { StaffUserBar } from './staff-user-bar.tsx'
import type { StaffSession } from './use-staff-session.ts'

/**
 * A staff page's heading: its title, what the page is for and any links of its own (a page without a
 * lead has the title alone), then the signed-in bar.
 */
export function StaffHeader({
  title,
  lead,
  session,
  children,
}: {
  title: string
  lead?: ReactNode
  session: StaffSession
  children?: ReactNode
}) {
  return (
    <header className="card-header staff-header">
      {lead === undefined ? (
        <h1>{title}</h1>
      ) : (
        <div>
          <h1>{title}</h1>
          <p>{lead}</p>
          {children}
        </div>
      )}
      <StaffUserBar session={session} />
    </header>
  )
}
