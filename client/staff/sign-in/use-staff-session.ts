import { useCallback, useEffect, useState } from 'react'
import { checkStaffSession, logOutStaff, type StaffAccountView } from '../shared/staff-api.ts'

export type StaffSessionStatus = 'checking' | 'signed-out' | 'signed-in'

export interface StaffSession {
  status: StaffSessionStatus
  /** The signed-in account, once the server has said who it is. */
  account: StaffAccountView | undefined
  /** Why the session could not be checked (the server was unreachable), if it could not. */
  problem: string | undefined
  /** The gate's sign-in worked: ask the server who signed in. */
  signedIn(): void
  /** A call answered 401: the session ended on the server, so show the gate again. */
  expired(): void
  logOut(): Promise<void>
}

/**
 * Whether this browser holds a staff session, and whose. The cookie is HttpOnly, so the page cannot read
 * it: it asks the server on load and after signing in, and the server decides on every call.
 */
export function useStaffSession(): StaffSession {
  const [status, setStatus] = useState<StaffSessionStatus>('checking')
  const [account, setAccount] = useState<StaffAccountView>()
  const [problem, setProblem] = useState<string>()
  const [check, setCheck] = useState(0)
  useEffect(() => {
    let isCurrent = true
    checkStaffSession().then(
      (found) => {
        if (!isCurrent) return
        setAccount(found)
        setStatus(found ? 'signed-in' : 'signed-out')
      },
      (error: Error) => {
        if (!isCurrent) return
        setProblem(`The server could not be reached (${error.message}). Please try again in a moment.`)
        setStatus('signed-out') // fail-closed: an unknown session shows the gate
      },
    )
    return () => {
      isCurrent = false
    }
  }, [check])

  const signedIn = useCallback(() => {
    setProblem(undefined)
    setStatus('checking')
    setCheck((count) => count + 1)
  }, [])
  const expired = useCallback(() => {
    setAccount(undefined)
    setStatus('signed-out')
  }, [])
  const logOut = useCallback(async () => {
    try {
      await logOutStaff()
    } catch (error) {
      setProblem(
        `Signing out did not reach the server (${(error as Error).message}). Close the browser to end the session.`,
      )
    }
    // even if the call failed, this page stops showing staff data
    setAccount(undefined)
    setStatus('signed-out')
  }, [])
  return { status, account, problem, signedIn, expired, logOut }
}
