import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { isAbort, isUnauthorized } from './staff-api.ts'

export type StaffResource<T> =
  | { status: 'loading'; data: T | undefined }
  | { status: 'ready'; data: T }
  | { status: 'failed'; data: undefined; message: string }

/**
 * Loads staff data again whenever `key` changes; the previous data stays on screen while the next
 * loads. An answer that arrives after a newer request started is dropped, and a 401 calls onUnauthorized.
 */
export function useStaffResource<T>({
  key,
  load,
  onUnauthorized,
}: {
  key: string
  load: (signal: AbortSignal) => Promise<T>
  onUnauthorized: () => void
}): StaffResource<T> {
  const [state, setState] = useState<StaffResource<T>>({ status: 'loading', data: undefined })
  const latest = useRef({ load, onUnauthorized })
  useLayoutEffect(() => {
    latest.current = { load, onUnauthorized }
  })
  useEffect(() => {
    const controller = new AbortController()
    setState((previous) => ({ status: 'loading', data: previous.data }))
    latest.current.load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data })
      },
      (error: unknown) => {
        if (controller.signal.aborted || isAbort(error)) return
        if (isUnauthorized(error)) {
          latest.current.onUnauthorized()
          return
        }
        console.error(error)
        const message = error instanceof Error ? error.message : String(error)
        setState({ status: 'failed', data: undefined, message })
      },
    )
    return () => controller.abort()
  }, [key])
  return state
}
