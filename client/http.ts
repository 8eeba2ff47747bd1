import { AppError, type ErrorBody, type ErrorCode } from '../src/app-error.ts'
import { withLang } from './i18n/locale.ts'

/**
 * The one JSON fetch of the site: a non-2xx answer becomes an AppError with the server's code, message
 * and field messages, in the page's language.
 */
export async function fetchJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(withLang(url), { headers: { Accept: 'application/json' }, ...init })
  const body: unknown = await response.json().catch(() => undefined)
  if (!response.ok) throw errorFromBody(response.status, body)
  return body as T
}

/** The AppError a failed answer stands for, its JSON body read if it has one. */
export async function errorFromResponse(response: Response): Promise<AppError> {
  return errorFromBody(response.status, await response.json().catch(() => undefined))
}

/** The AppError of an answer's status and already-parsed body ({ error: { code, message, fields?, details? } }). */
export function errorFromBody(status: number, body: unknown): AppError {
  const error = (body as Partial<ErrorBody> | undefined)?.error
  const code: ErrorCode = error?.code ?? 'INTERNAL_ERROR'
  const message = error?.message ?? `the server answered ${status}`
  return new AppError(code, {
    status,
    message,
    ...(error?.fields ? { fields: error.fields } : {}),
    ...(error?.details ? { details: error.details } : {}),
  })
}

/**
 * Hands an address to the browser's own download: a same-site URL (the server's Content-Disposition
 * names the file, `fileName` is the fallback) or an object URL made from a fetched file.
 */
export function startDownload({ href, fileName }: { href: string; fileName: string }): void {
  const link = document.createElement('a')
  link.href = href
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
}
