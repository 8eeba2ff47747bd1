import type { ReactNode } from 'react'
import { Loading } from '../../ui/loading.tsx'
import type { StaffResource } from './use-staff-resource.ts'

/**
 * What a staff page shows of something it loads (useStaffResource): the failure in an alert, a loading
 * line until the first answer, then `children` with the data, which stays on screen while it reloads.
 */
export function ResourceView<T>({
  resource,
  loading,
  failed,
  children,
}: {
  resource: StaffResource<T>
  /** The loading line, e.g. "Loading accounts..." */
  loading: string
  /** The alert's text, from the failure's message: what could not be loaded and what to do. */
  failed: (message: string) => ReactNode
  children: (data: T) => ReactNode
}) {
  if (resource.status === 'failed') {
    return (
      <p className="alert" role="alert">
        {failed(resource.message)}
      </p>
    )
  }
  if (resource.data === undefined) return <Loading label={loading} />
  return <>{children(resource.data)}</>
}
