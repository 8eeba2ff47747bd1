import { useEffect, useRef, useState } from 'react'
import { fetchClaim, isAbort, isUnauthorized, type StaffClaim } from './staff-api.ts'

export type ClaimDetails =
  | { status: 'closed' }
  | { status: 'loading'; id: number }
  | { status: 'ready'; id: number; claim: StaffClaim }
  | { status: 'failed'; id: number; message: string }

/**
 * The claim whose details are open, as the server answers it (GET /api/staff/claims/:id, which puts the
 * view on record) rather than as the list showed it. Opening another claim drops the answer still on
 * its way for the one before; a claim of another app is refused, as this dashboard shows only its own.
 */
export function useClaimDetails({ app, onUnauthorized }: { app: string; onUnauthorized: () => void }): {
  details: ClaimDetails
  open: (id: number) => void
  close: () => void
} {
  const [details, setDetails] = useState<ClaimDetails>({ status: 'closed' })
  const pending = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => pending.current?.abort(), [])

  const open = (id: number) => {
    pending.current?.abort()
    const controller = new AbortController()
    pending.current = controller
    setDetails({ status: 'loading', id })
    fetchClaim({ id, signal: controller.signal }).then(
      (claim) => {
        if (controller.signal.aborted) return
        setDetails(
          claim.app === app
            ? { status: 'ready', id, claim }
            : { status: 'failed', id, message: `claim ${id} belongs to another app's dashboard` },
        )
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return
        if (isUnauthorized(error)) {
          onUnauthorized()
          return
        }
        console.error(error)
        setDetails({ status: 'failed', id, message: error instanceof Error ? error.message : String(error) })
      },
    )
  }
  const close = () => {
    pending.current?.abort()
    setDetails({ status: 'closed' })
  }
  return { details, open, close }
}
