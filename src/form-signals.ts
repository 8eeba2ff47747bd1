import { AppError } from './app-error.ts'
import { readJsonObjectField } from './json-object-field.ts'

/** The multipart field (a claim) or JSON key (an intake) that carries what the form saw. */
export const SIGNALS_FIELD = 'signals'

/**
 * What a form saw as the claimant filled it in, sent beside the answers and stored with them for the
 * fraud tests (server/fraud/). Nothing here identifies the claimant: the device id is a random id the
 * site's own pages keep in the browser's storage (no third-party fingerprinting).
 */
export interface FormSignals {
  /** The browser's random id (client/fraud-signals/device-id.ts), 22 to 64 URL-safe characters. */
  device?: string
  /** Milliseconds from the form's first paint to the send. */
  elapsedMs?: number
  /** The typed answers (by field name) whose text was pasted in. */
  pasted?: string[]
  /** The answers typed at all (pasted or keyed), so that "every field pasted" can be told. */
  typed?: string[]
  /** The hidden field no person sees; a bot that fills it is refused. */
  trap?: string
}

/**
 * A device id as the browser keeps and sends it: 22 to 64 URL-safe characters (16 random bytes or more).
 * @example DEVICE_ID_PATTERN.test('q3Vb0mXh1e_Zt9LkQp2W-A') // true
 */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/
const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/
const MAX_ELAPSED_MS = 7 * 24 * 3600_000

/** The message of a form sent with its hidden field filled: only a bot sees that field. */
export const BOT_REFUSED_MESSAGE =
  'This form was filled in by a program, not a person. If you are a person, reload the page and try again.'

function fieldNames(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  const names = value.filter((name): name is string => typeof name === 'string' && FIELD_NAME.test(name))
  return [...new Set(names)].slice(0, 40)
}

/**
 * The signals as sent (a JSON text or an object), cleaned: known keys only, each of its shape or
 * dropped; undefined when none were sent. A value that is not a JSON object is a 400 naming the field;
 * a filled trap is a 400 with BOT_REFUSED_MESSAGE, before anything is stored.
 */
export function readFormSignals(sent: unknown): FormSignals | undefined {
  if (sent === undefined || sent === null) return undefined
  const raw = readJsonObjectField(
    sent,
    `"${SIGNALS_FIELD}" must be a JSON object of what the form saw (device, elapsedMs, pasted, typed)`,
  )
  if (typeof raw.trap === 'string' && raw.trap.trim() !== '') {
    throw new AppError('BOT_SUSPECTED', { status: 400, message: BOT_REFUSED_MESSAGE })
  }
  const signals: FormSignals = {}
  if (typeof raw.device === 'string' && DEVICE_ID_PATTERN.test(raw.device)) signals.device = raw.device
  if (typeof raw.elapsedMs === 'number' && Number.isInteger(raw.elapsedMs) && raw.elapsedMs >= 0) {
    signals.elapsedMs = Math.min(raw.elapsedMs, MAX_ELAPSED_MS)
  }
  const pasted = fieldNames(raw.pasted)
  if (pasted) signals.pasted = pasted
  const typed = fieldNames(raw.typed)
  if (typed) signals.typed = typed
  return signals
}

/** The signals as stored (claims.signals, form_submissions.signals): JSON, or null when none were sent. */
export function storedSignals(signals: FormSignals | undefined): string | null {
  return signals === undefined ? null : JSON.stringify(signals)
}

/** The stored signals read back; {} for none or a row from before they were kept. */
export function parseStoredSignals(stored: string | null | undefined): FormSignals {
  if (!stored) return {}
  try {
    return readFormSignals(stored) ?? {}
  } catch {
    return {}
  }
}
