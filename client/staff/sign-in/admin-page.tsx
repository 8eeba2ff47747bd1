import { useEffect, useState, type ReactNode } from 'react'
import { AppError } from '../../../src/app-error.ts'
import { StaffArea } from './staff-area.tsx'
import type { StaffSession } from './use-staff-session.ts'
import { StaffHeader } from './staff-header.tsx'

/** What an admin page's buttons do: one change at a time, told as a note or a problem. */
export interface AdminActions {
  /** Bumped by each change: the page's list reloads on it (useStaffResource's key). */
  version: number
  reload(): void
  note: string | undefined
  problem: string | undefined
  /** Says what happened, clearing the last problem. */
  tell(note: string | undefined): void
  /** A signed-out answer (401) ends the session; other errors are the caller's to show. */
  failed(error: unknown): void
  /**
   * Runs one change, then tells `done` ("Verb: what now holds") or, if it failed, "Verb failed: why."
   * The list reloads after a change that went through.
   */
  act(run: () => Promise<unknown>, done: string): Promise<void>
}

export function useAdminActions(session: StaffSession): AdminActions {
  const [version, setVersion] = useState(0)
  const [note, setNote] = useState<string>()
  const [problem, setProblem] = useState<string>()
  const reload = () => setVersion((count) => count + 1)
  const failed = (error: unknown) => {
    if (error instanceof AppError && error.status === 401) session.expired()
  }
  const tell = (text: string | undefined) => {
    setProblem(undefined)
    setNote(text)
  }
  return {
    version,
    reload,
    note,
    problem,
    tell,
    failed,
    async act(run, done) {
      tell(undefined)
      try {
        await run()
        setNote(done)
        reload()
      } catch (error) {
        failed(error)
        setProblem(`${done.split(':')[0]} failed: ${(error as Error).message}.`)
      }
    },
  }
}

/**
 * A page for admins only (/staff/accounts, /staff/webhooks): the gate, then the page's heading, the
 * signed-in bar, and the note (a polite live region) or problem (an alert) of its last change.
 */
export function AdminPage({
  title,
  lead,
  className,
  children,
}: {
  title: string
  lead: string
  className: string
  children: (session: StaffSession, actions: AdminActions) => ReactNode
}) {
  return (
    <StaffArea gateTitle={title} allows={(account) => account.role === 'admin'}>
      {(session) => (
        <AdminPageBody title={title} lead={lead} className={className} session={session}>
          {children}
        </AdminPageBody>
      )}
    </StaffArea>
  )
}

function AdminPageBody({
  title,
  lead,
  className,
  session,
  children,
}: {
  title: string
  lead: string
  className: string
  session: StaffSession
  children: (session: StaffSession, actions: AdminActions) => ReactNode
}) {
  const actions = useAdminActions(session)
  useEffect(() => {
    document.title = title
  }, [title])
  return (
    <article className={`card staff-dashboard ${className}`}>
      <StaffHeader title={title} lead={lead} session={session} />
      <div className="card-body">
        <div aria-live="polite">{actions.note ? <p className="done-note">{actions.note}</p> : null}</div>
        {actions.problem ? (
          <p className="alert" role="alert">
            {actions.problem}
          </p>
        ) : null}
        {children(session, actions)}
      </div>
    </article>
  )
}
