/**
 * What the staff list endpoints answer, shared by server/staff and client/staff.
 * @example const page: StaffPage<StaffSubmission> = await fetchJson('/api/staff/apps/brigit/submissions')
 */

/** One Step 2 claim as the dashboards receive it. */
export interface StaffSubmission {
  id: number
  createdAt: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  cashAdvanceCount: number
  membershipMonths: number
  /** The language the claimant filed in ('en', 'es'). */
  locale: string
  /** The authenticated route that serves the screenshot; the file has no public address. */
  screenshotUrl: string
}

/** One main-form submission as the main page's admin view shows it (SPEC.md section 3, camelCased). */
export interface IntakeSubmission {
  id: number
  createdAt: string
  firstName: string
  lastName: string
  email: string
  phone: string
  /** The apps' labels, e.g. 'Earnin'. */
  cashAdvanceApps: string[]
  /** A PNG data URL. */
  signature: string
}

/** One page of a staff list; count matches the search, total is everything. */
export interface StaffPage<T> {
  success: boolean
  data: T[]
  count: number
  total: number
  page: number
  pageSize: number
  error: string | null
}
