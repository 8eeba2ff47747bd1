import { AppError, type ErrorBody } from '../../src/app-error.ts'
import type { IntakeSubmission, StaffPage, StaffSubmission } from '../../src/staff-lists.ts'
import { fetchJson } from '../forms/api.ts'

export type { IntakeSubmission, StaffPage, StaffSubmission }

export interface DailyCount {
  /** YYYY-MM-DD */
  date: string
  count: number
}

export interface StaffStats {
  total: number
  avgMembershipMonths: number | null
  avgCashAdvances: number | null
  daily: DailyCount[]
}

export const PAGE_SIZE = 50

/** 200 means signed in; 401 means show the gate. Anything else is thrown. */
export async function checkStaffSession(): Promise<boolean> {
  try {
    await fetchJson<{ authenticated: boolean }>('/api/staff/session', { cache: 'no-store' })
    return true
  } catch (error) {
    if (isUnauthorized(error)) return false
    throw error
  }
}

/** The password goes to the server only; the answer is an HttpOnly cookie the page never sees. */
export async function logInStaff({ password, app }: { password: string; app?: string }): Promise<void> {
  await fetchJson<void>('/api/staff/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ password, app }),
  })
}

export async function logOutStaff(): Promise<void> {
  await fetchJson<void>('/api/staff/logout', { method: 'POST', headers: { Accept: 'application/json' } })
}

export function fetchAppSubmissions({
  slug,
  query,
  page,
  signal,
}: {
  slug: string
  query: string
  page: number
  signal?: AbortSignal
}): Promise<StaffPage<StaffSubmission>> {
  const params = new URLSearchParams({ q: query, page: String(page), pageSize: String(PAGE_SIZE) })
  return fetchJson(`${appBase(slug)}/submissions?${params}`, { signal, cache: 'no-store' })
}

export function fetchAppStats({ slug, signal }: { slug: string; signal?: AbortSignal }): Promise<StaffStats> {
  return fetchJson(`${appBase(slug)}/stats`, { signal, cache: 'no-store' })
}

export function appCsvUrl(slug: string, query: string): string {
  const params = new URLSearchParams({ q: query })
  return `${appBase(slug)}/export.csv?${params}`
}

export function fetchIntakeSubmissions({
  page,
  signal,
}: {
  page: number
  signal?: AbortSignal
}): Promise<StaffPage<IntakeSubmission>> {
  const params = new URLSearchParams({ page: String(page) })
  return fetchJson(`/api/staff/intake-submissions?${params}`, { signal, cache: 'no-store' })
}

export const INTAKE_CSV_URL = '/api/staff/intake-submissions/export.csv'

/**
 * Fetches a CSV export and hands it to the browser as a download. Fetching first (instead of a plain
 * link) is what lets the page tell the user when the export failed, and notice a lost session.
 */
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
  const link = document.createElement('a')
  link.href = url
  // the server's Content-Disposition names the file; this name is the browser's fallback
  link.download = fallbackName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
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

async function errorFromResponse(response: Response): Promise<AppError> {
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined
  return new AppError(body?.error?.code ?? 'INTERNAL_ERROR', {
    status: response.status,
    message: body?.error?.message ?? `the server answered ${response.status}`,
  })
}
