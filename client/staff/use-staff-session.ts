import { useCallback, useEffect, useState } from 'react'
import { checkStaffSession, logOutStaff } from './staff-api.ts'

export type StaffSessionStatus = 'checking' | 'signed-out' | 'signed-in'

export interface StaffSession {
  status: StaffSessionStatus
  /** Why the session could not be checked (the server was unreachable), if it could not. */
  problem: string | undefined
  signedIn(): void
  /** A call answered 401: the session ended on the server, so show the gate again. */
  expired(): void
  logOut(): Promise<void>
}

/**
 * Whether this browser holds a staff session. The cookie is HttpOnly, so the page cannot read it: it
 * asks the server on load, and the server decides on every call.
 */
export function useStaffSession(): StaffSession {
  const [status, setStatus] = useState<StaffSessionStatus>('checking')
  const [problem, setProblem] = useState<string>()
  useEffect(() => {
    let isCurrent = true
    checkStaffSession().then(
      (isSignedIn) => isCurrent && setStatus(isSignedIn ? 'signed-in' : 'signed-out'),
      (error: Error) => {
        if (!isCurrent) return
        setProblem(`The server could not be reached (${error.message}). Please try again in a moment.`)
        setStatus('signed-out') // fail-closed: an unknown session shows the gate
      },
    )
    return () => {
      isCurrent = false
    }
  }, [])

  const signedIn = useCallback(() => {
    setProblem(undefined)
    setStatus('signed-in')
  }, [])
  const expired = useCallback(() => setStatus('signed-out'), [])
  const logOut = useCallback(async () => {
    try {
      await logOutStaff()
    } catch (error) {
      setProblem(
        `Logging out did not reach the server (${(error as Error).message}). Close the browser to end the session.`,
      )
    }
    // even if the call failed, this page stops showing staff data
    setStatus('signed-out')
  }, [])
  return { status, problem, signedIn, expired, logOut }
}
