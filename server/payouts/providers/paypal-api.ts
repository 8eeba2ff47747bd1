import { requestPayPal, type PayPalAnswer } from './paypal-http.ts'

/** PayPal's REST API origins; tests point the client at a stand-in on 127.0.0.1 instead. */
export const PAYPAL_LIVE_URL = 'https://api-m.paypal.com'
export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com'

/** How many times one call is tried in all, unless the options say otherwise. */
export const PAYPAL_MAX_ATTEMPTS = 5
const FIRST_DELAY_MS = 500
// a Retry-After asking for longer than this is not waited for in full: the batch job has a lease to keep
const MAX_DELAY_MS = 30_000
const TIMEOUT_MS = 30_000
// PayPal's tokens live about nine hours; one is renewed this long before it ends, so that a call begun
// just before the end does not reach PayPal with a token that has gone
const TOKEN_MARGIN_MS = 5 * 60_000

export interface PayPalApiOptions {
  baseUrl: string
  clientId: string
  clientSecret: string
  /** Tries per call, the first included: 5 by default. */
  maxAttempts?: number
  /** Waits between tries; tests pass one that returns at once and records the delays. */
  sleep?: (ms: number) => Promise<void>
  /** The clock the token's lifetime is measured with, in ms. */
  now?: () => number
  /** How long one try may take before it counts as a network failure. */
  timeoutMs?: number
}

export interface PayPalCall {
  method: 'GET' | 'POST'
  path: string
  query?: Record<string, string | number | boolean>
  /** JSON text, sent as it is. */
  body?: string
  /** PayPal-Request-Id: PayPal answers a repeated POST with this id as it answered the first. */
  requestId?: string
}

/** Authorised JSON calls to PayPal, with the token kept and renewed and failed tries retried. */
export interface PayPalApi {
  readonly baseUrl: string
  call<T>(call: PayPalCall): Promise<T>
}

export interface PayPalErrorDetail {
  field?: string
  issue: string
}

/**
 * PayPal refused a call, or could not be reached. `errorName` is PayPal's own (VALIDATION_ERROR,
 * INSUFFICIENT_FUNDS, invalid_client…), or NETWORK_ERROR when no answer came; `status` is 0 then.
 */
export class PayPalError extends Error {
  readonly status: number
  readonly errorName: string
  readonly debugId?: string
  readonly details: PayPalErrorDetail[]

  constructor({
    status,
    errorName,
    message,
    debugId,
    details = [],
  }: {
    status: number
    errorName: string
    message: string
    debugId?: string
    details?: PayPalErrorDetail[]
  }) {
    super(message)
    this.name = 'PayPalError'
    this.status = status
    this.errorName = errorName
    if (debugId) this.debugId = debugId
    this.details = details
  }
}

/**
 * A PayPal REST client: an OAuth2 client-credentials token from POST /v1/oauth2/token, kept until
 * shortly before it ends; each call retried on a network failure, a 429 or a 5xx, waiting 0.5, 1, 2, 4 s
 * (or the Retry-After PayPal names, up to 30 s), and never on another 4xx, whose name and message PayPal
 * chose are what the error says. A 401 on a kept token fetches a new token once: PayPal may end a token
 * early.
 */
export function paypalApi(options: PayPalApiOptions): PayPalApi {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const maxAttempts = options.maxAttempts ?? PAYPAL_MAX_ATTEMPTS
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const now = options.now ?? Date.now
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')
  let token: { value: string; renewAt: number } | undefined
  // calls that need a token at the same moment share one token request
  let pendingToken: Promise<string> | undefined

  async function send(label: string, attempt: () => Promise<PayPalAnswer>): Promise<PayPalAnswer> {
    for (let tries = 1; ; tries++) {
      let response: PayPalAnswer
      try {
        response = await attempt()
      } catch (error) {
        if (tries >= maxAttempts) {
          throw new PayPalError({
            status: 0,
            errorName: 'NETWORK_ERROR',
            message: `paypal could not be reached for ${label} after ${tries} tries: ${networkReason(error)}`,
          })
        }
        await sleep(delayBefore(tries + 1))
        continue
      }
      const retryable = response.status === 429 || response.status >= 500
      if (!retryable || tries >= maxAttempts) return response
      await sleep(delayBefore(tries + 1, response.header('retry-after')))
    }
  }

  async function fetchToken(): Promise<string> {
    const response = await send('POST /v1/oauth2/token', () =>
      requestPayPal({
        url: `${baseUrl}/v1/oauth2/token`,
        timeoutMs,
        method: 'POST',
        headers: {
          Authorization: `Basic ${basic}`,
          Accept: 'application/json',
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: 'grant_type=client_credentials',
      }),
    )
    const body = readJson(response)
    if (!isOk(response)) throw refusal({ label: 'POST /v1/oauth2/token', status: response.status, body })
    const { access_token: value, expires_in: expiresIn } = (body ?? {}) as {
      access_token?: unknown
      expires_in?: unknown
    }
    if (typeof value !== 'string' || typeof expiresIn !== 'number') {
      throw new PayPalError({
        status: response.status,
        errorName: 'UNEXPECTED_ANSWER',
        message: 'paypal answered the token request without access_token and expires_in',
      })
    }
    const lifetime = expiresIn * 1000
    token = { value, renewAt: now() + lifetime - Math.min(TOKEN_MARGIN_MS, lifetime / 2) }
    return value
  }

  async function accessToken(): Promise<string> {
    if (token && now() < token.renewAt) return token.value
    pendingToken ??= fetchToken().finally(() => (pendingToken = undefined))
    return pendingToken
  }

  return {
    baseUrl,
    async call<T>({ method, path, query, body, requestId }: PayPalCall): Promise<T> {
      const url = new URL(`${baseUrl}${path}`)
      for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, String(value))
      const label = `${method} ${path}`
      for (let renewed = false; ; renewed = true) {
        const bearer = await accessToken()
        const response = await send(label, () =>
          requestPayPal({
            url: url.href,
            timeoutMs,
            method,
            headers: {
              Authorization: `Bearer ${bearer}`,
              Accept: 'application/json',
              ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
              ...(requestId ? { 'PayPal-Request-Id': requestId } : {}),
            },
            ...(body === undefined ? {} : { body }),
          }),
        )
        if (response.status === 401 && !renewed) {
          if (token?.value === bearer) token = undefined
          continue
        }
        const answer = readJson(response)
        if (!isOk(response)) throw refusal({ label, status: response.status, body: answer })
        return answer as T
      }
    },
  }
}

/** The wait before try number `tries`: doubling from 0.5 s, or what Retry-After asks, never past 30 s. */
function delayBefore(tries: number, retryAfter?: string | null): number {
  const asked = retryAfter ? Number(retryAfter) * 1000 : NaN
  const delay = Number.isFinite(asked) && asked >= 0 ? asked : FIRST_DELAY_MS * 2 ** (tries - 2)
  return Math.min(delay, MAX_DELAY_MS)
}

function isOk(response: PayPalAnswer): boolean {
  return response.status >= 200 && response.status < 300
}

function readJson(response: PayPalAnswer): unknown {
  if (!response.text) return undefined
  try {
    return JSON.parse(response.text) as unknown
  } catch {
    // a proxy's HTML error page: the status says enough
    return undefined
  }
}

/** PayPal's error answer as an error: its REST shape {name, message, details} or OAuth's {error, error_description}. */
function refusal({ label, status, body }: { label: string; status: number; body: unknown }): PayPalError {
  const answer = (body ?? {}) as {
    name?: unknown
    message?: unknown
    debug_id?: unknown
    details?: unknown
    error?: unknown
    error_description?: unknown
  }
  const errorName = text(answer.name) ?? text(answer.error) ?? `HTTP_${status}`
  const said = text(answer.message) ?? text(answer.error_description) ?? 'no message'
  const details = Array.isArray(answer.details)
    ? answer.details.map((detail: { field?: unknown; issue?: unknown; description?: unknown }) => ({
        ...(text(detail.field) ? { field: text(detail.field)! } : {}),
        issue: text(detail.issue) ?? text(detail.description) ?? 'no issue named',
      }))
    : []
  const listed = details.map((detail) => (detail.field ? `${detail.field}: ${detail.issue}` : detail.issue))
  const debugId = text(answer.debug_id)
  return new PayPalError({
    status,
    errorName,
    message: `paypal refused ${label} (${status} ${errorName}): ${said}${listed.length ? ` (${listed.join('; ')})` : ''}`,
    ...(debugId ? { debugId } : {}),
    details,
  })
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value ? value : undefined
}

function networkReason(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time'
  const code = (error as { code?: unknown } | undefined)?.code
  if (typeof code === 'string') return code
  return error instanceof Error ? error.message : String(error)
}
