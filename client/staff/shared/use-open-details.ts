import { useEffect, useRef, useState } from 'react'
import { isAbort, isUnauthorized } from './staff-api.ts'

export type OpenDetails<T> =
  | { status: 'closed' }
  | { status: 'loading'; id: number }
  | { status: 'ready'; id: number; data: T }
  | { status: 'failed'; id: number; message: string }

/**
 * The record whose details are open (a claim, an intake), as the server answers it (which puts the view
 * on record) rather than as the list showed it. Opening another drops the answer still on its way for
 * the one before; a refusal `load` throws is shown as the details' problem.
 */
export function useOpenDetails<T>({
  load,
  onUnauthorized,
}: {
  load: (id: number, signal: AbortSignal) => Promise<T>
  onUnauthorized: () => void
}): { details: OpenDetails<T>; open: (id: number) => void; close: () => void } {
  const [details, setDetails] = useState<OpenDetails<T>>({ status: 'closed' })
  const pending = useRef<AbortController | undefined>(undefined)
  useEffect(() => () => pending.current?.abort(), [])

  const open = (id: number) => {
    pending.current?.abort()
    const controller = new AbortController()
    pending.current = controller
    setDetails({ status: 'loading', id })
    load(id, controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setDetails({ status: 'ready', id, data })
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
