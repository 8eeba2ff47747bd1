import { AppError } from '../../../src/app-error.ts'
import type {
  ClaimListPage,
  DailyCount,
  DuplicateCluster,
  DuplicateScreenshot,
  StaffClaim,
  IntakeSubmission,
  IntakeSubmissionDetails,
  StaffPage,
  StaffAccountView,
  StaffSession,
  StaffAssignee,
  StaffStats,
  StaffClaimRow,
} from '../../../src/api/staff.ts'
import type {
  RecoveryCodes,
  TwoFactorSetup,
  TwoFactorSetupRequired,
} from '../../../src/api/staff-two-factor.ts'
import { errorFromBody, errorFromResponse, fetchJson, startDownload } from '../../http.ts'
import type { ClaimReview } from '../../../src/api/review.ts'

export type {
  ClaimListPage,
  StaffAccountView,
  StaffAssignee,
  DailyCount,
  DuplicateCluster,
  DuplicateScreenshot,
  IntakeSubmission,
  IntakeSubmissionDetails,
  StaffClaim,
  StaffPage,
  StaffStats,
  StaffClaimRow,
}

export const PAGE_SIZE = 50

/** 200 gives the signed-in account; 401 (undefined) means show the gate. Anything else is thrown. */
export async function checkStaffSession(): Promise<StaffAccountView | undefined> {
  try {
    return (await fetchJson<StaffSession>('/api/staff/session', { cache: 'no-store' })).account
  } catch (error) {
    if (isUnauthorized(error)) return undefined
    throw error
  }
}

/**
 * What a sign-in that was not refused led to: a session (with recovery codes when it turned TOTP on), or
 * a set-up (after the e-mailed code).
 */
export type LogInAnswer =
  | { isSignedIn: true; recoveryCodes?: string[] }
  | { isSignedIn: false; setup: TwoFactorSetup; message: string }

/**
 * The password (and the code, once asked for) go to the server only; the answer is an HttpOnly cookie
 * the page never sees. Refusals (a wrong password, TWO_FACTOR_REQUIRED, TWO_FACTOR_EMAIL_CODE_REQUIRED,
 * INVALID_CODE, INVALID_EMAIL_CODE) are thrown.
 */
export async function logInStaff(credentials: {
  email: string
  password: string
  app?: string
  code?: string
  /** The code of the set-up e-mail, once the server asked for it. */
  emailCode?: string
}): Promise<LogInAnswer> {
  const response = await fetch('/api/staff/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(credentials),
  })
  const body: unknown = await response.json().catch(() => undefined)
  if (response.ok) {
    const recoveryCodes = (body as Partial<RecoveryCodes> | undefined)?.recoveryCodes
    return recoveryCodes ? { isSignedIn: true, recoveryCodes } : { isSignedIn: true }
  }
  const error = errorFromBody(response.status, body)
  if (error.code !== 'TWO_FACTOR_SETUP_REQUIRED') throw error
  const { secret, otpauthUrl, qrCode } = body as TwoFactorSetupRequired
  return { isSignedIn: false, setup: { secret, otpauthUrl, qrCode }, message: error.message }
}

export async function logOutStaff(): Promise<void> {
  await fetchJson<void>('/api/staff/logout', { method: 'POST', headers: { Accept: 'application/json' } })
}

export function fetchAppClaims({
  slug,
  query,
  filters = {},
  flagged = false,
  order = 'newest',
  page,
  signal,
}: {
  slug: string
  query: string
  /** By date: newest first (the server's default) or oldest first; or the lowest fraud score first. */
  order?: ListOrder
  /** Each chosen filter's parameter (filterParams in claim-filters.tsx). */
  filters?: Record<string, string>
  /** Only claims flagged for a duplicate screenshot. */
  flagged?: boolean
  page: number
  signal?: AbortSignal
}): Promise<ClaimListPage> {
  const params = new URLSearchParams({
    q: query,
    ...filters,
    page: String(page),
    pageSize: String(PAGE_SIZE),
  })
  if (flagged) params.set('flagged', '1')
  if (order !== 'newest') params.set('order', order)
  return fetchJson(`${appBase(slug)}/submissions?${params}`, { signal, cache: 'no-store' })
}

export function fetchAppStats({ slug, signal }: { slug: string; signal?: AbortSignal }): Promise<StaffStats> {
  return fetchJson(`${appBase(slug)}/stats`, { signal, cache: 'no-store' })
}

export function appCsvUrl(
  slug: string,
  query: string,
  { filters = {}, flagged = false }: { filters?: Record<string, string>; flagged?: boolean } = {},
): string {
  const params = new URLSearchParams({ q: query, ...filters })
  if (flagged) params.set('flagged', '1')
  return `${appBase(slug)}/export.csv?${params}`
}

/** One claim by its id, for a link to it (from a flagged claim's details). */
export function fetchClaim({ id, signal }: { id: number; signal?: AbortSignal }): Promise<StaffClaim> {
  return fetchJson(`/api/staff/claims/${id}`, { signal, cache: 'no-store' })
}

/** The claims whose screenshot a flagged claim's matches. */
export function fetchDuplicateScreenshots({
  id,
  signal,
}: {
  id: number
  signal?: AbortSignal
}): Promise<DuplicateScreenshot[]> {
  return fetchJson(`/api/staff/claims/${id}/duplicates`, { signal, cache: 'no-store' })
}

/** The claims connected to a flagged claim by flags, which "Not duplicates" decides at once. */
export function fetchDuplicateCluster({
  id,
  signal,
}: {
  id: number
  signal?: AbortSignal
}): Promise<DuplicateCluster> {
  return fetchJson(`/api/staff/claims/${id}/duplicate-cluster`, { signal, cache: 'no-store' })
}

/** Where a link opens a claim: its app's dashboard, with the claim's details open. */
export function claimDashboardHref({ app, id }: { app: string; id: number }): string {
  return `/${encodeURIComponent(app)}-admin?claim=${id}`
}

/** The main admin view's list; the term goes as `q`, as the dashboards send theirs (the server logs paths only). */
export function fetchIntakes({
  query,
  page,
  signal,
}: {
  query: string
  page: number
  signal?: AbortSignal
}): Promise<StaffPage<IntakeSubmission>> {
  const params = new URLSearchParams({ q: query, page: String(page), pageSize: String(PAGE_SIZE) })
  return fetchJson(`/api/staff/intake-submissions?${params}`, { signal, cache: 'no-store' })
}

/** One intake with its answers and its apps' Step 2 claims; the server puts the view on record. */
export function fetchIntake({
  id,
  signal,
}: {
  id: number
  signal?: AbortSignal
}): Promise<IntakeSubmissionDetails> {
  return fetchJson(`/api/staff/intake-submissions/${id}`, { signal, cache: 'no-store' })
}

/** A claim's own address on its app's dashboard. */
export function claimHref({ app, id }: { app: string; id: number }): string {
  return `/${encodeURIComponent(app)}-admin/claims/${id}`
}

export const INTAKE_CSV_URL = '/api/staff/intake-submissions/export.csv'

/**
 * Downloads a CSV export as the browser's own download, streamed to disk (a million rows never sit in
 * the tab's memory), with the session cookie. A quick check first (`check=1`: same session, app and
 * search, no rows read) turns an expired session or a refused request into an error the page shows.
 */
export async function downloadCsv({
  url,
  fallbackName,
}: {
  url: string
  fallbackName: string
}): Promise<void> {
  const check = await fetch(`${url}${url.includes('?') ? '&' : '?'}check=1`, { cache: 'no-store' })
  if (!check.ok) throw await errorFromResponse(check)
  startDownload({ href: url, fileName: fallbackName })
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof AppError && error.status === 401
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}

function appBase(slug: string): string {
  return `/api/staff/apps/${encodeURIComponent(slug)}`
}

/** A claim's review: its status, history and the moves open to this account. */
export function fetchClaimReview({ id, signal }: { id: number; signal?: AbortSignal }): Promise<ClaimReview> {
  return fetchJson<ClaimReview>(`/api/staff/claims/${id}/review`, signal ? { signal } : undefined)
}

/** Moves the claim's review; a move made meanwhile wins and this one is refused (409). */
export function moveClaim({
  id,
  move,
}: {
  id: number
  move: { to: string; reason?: string; reasonText?: string; note?: string; version: number }
}): Promise<{ status: string; version: number }> {
  return fetchJson(`/api/staff/claims/${id}/moves`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(move),
  })
}

/**
 * Decides a flagged claim against one it was flagged with: "duplicate" makes the config's move (a stale
 * version is refused, 409), "not_duplicate" unflags the pair for both claims, or with `cluster` every
 * pair among the claims connected to it by flags.
 */
export function decideDuplicate({
  id,
  decision,
}: {
  id: number
  decision:
    | { decision: 'duplicate' | 'not_duplicate'; other: number; version: number }
    | { decision: 'not_duplicate'; cluster: true; version: number }
}): Promise<{ status: string; version: number; flagged: boolean }> {
  return fetchJson(`/api/staff/claims/${id}/duplicate-decision`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(decision),
  })
}

/** A list's order by date (and claim id), or a claim list's by fraud score, lowest first. */
export type ListOrder = 'newest' | 'oldest' | 'score'

/** The accounts an app's claims can be assigned to, for the details' picker. */
export function fetchAssignees({
  slug,
  signal,
}: {
  slug: string
  signal?: AbortSignal
}): Promise<StaffAssignee[]> {
  return fetchJson(`${appBase(slug)}/assignees`, { signal, cache: 'no-store' })
}

/** Assigns the claim to an account, or unassigns it (null); answers the claim's assignee. */
export function assignClaim({
  id,
  accountId,
}: {
  id: number
  accountId: number | null
}): Promise<{ assignee: StaffAssignee | null }> {
  return fetchJson(`/api/staff/claims/${id}/assignee`, {
    method: 'PUT',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ accountId }),
  })
}
