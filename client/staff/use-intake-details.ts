import { useEffect, useRef, useState } from 'react'
import { fetchIntakeSubmission, isAbort, isUnauthorized, type IntakeSubmissionDetails } from './staff-api.ts'

export type IntakeDetails =
  | { status: 'closed' }
  | { status: 'loading'; id: number }
  | { status: 'ready'; id: number; intake: IntakeSubmissionDetails }
  | { status: 'failed'; id: number; message: string }

/**
 * The intake whose details are open, as the server answers it (which puts the view on record). Opening
 * another drops the answer still on its way for the one before.
 */
export function useIntakeDetails({ onUnauthorized }: { onUnauthorized: () => void }): {
  details: IntakeDetails
  open: (id: number) => void
  close: () => void
} {
  const [details, setDetails] = useState<IntakeDetails>({ status: 'closed' })
  const pending = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => pending.current?.abort(), [])

  const open = (id: number) => {
    pending.current?.abort()
    const controller = new AbortController()
    pending.current = controller
    setDetails({ status: 'loading', id })
    fetchIntakeSubmission({ id, signal: controller.signal }).then(
      (intake) => {
        if (!controller.signal.aborted) setDetails({ status: 'ready', id, intake })
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
