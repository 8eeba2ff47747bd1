import { readJsonObjectField } from './json-object-field.ts'

/**
 * Where a claimant came from: the first landing's campaign parameters and the referring site's host,
 * kept in the browser (client/attribution.ts) and sent with the intake and each claim. The same rules
 * clean them on both sides, so what the server stores is what the browser meant to send.
 * @example cleanAttribution({ utm_source: 'fb', utm_campaign: 'spring' }) // { utm_source: 'fb', utm_campaign: 'spring' }
 */
export const ATTRIBUTION_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'gclid',
  'fbclid',
  'referrer',
] as const
export type AttributionKey = (typeof ATTRIBUTION_KEYS)[number]
/** What a claim or an intake records of where it came from; a key left out was not there. */
export type Attribution = Partial<Record<AttributionKey, string>>

/** The request field (a claim's multipart text field, an intake's JSON key) that carries it. */
export const ATTRIBUTION_FIELD = 'attribution'
/** The longest value kept: a longer one is cut here. */
export const MAX_ATTRIBUTION_LENGTH = 200
/** The funnel's name for claims and intakes that came without a utm_source. */
export const NO_SOURCE = '(none)'

// eslint-disable-next-line no-control-regex -- dropping control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g

/**
 * The known keys of `input` with text values, each without control characters, trimmed and cut to
 * 200 characters; empty ones and anything else left out. Undefined when nothing is left (or the input
 * is not an object): a claim without attribution is stored without.
 */
export function cleanAttribution(input: unknown): Attribution | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined
  const out: Attribution = {}
  for (const key of ATTRIBUTION_KEYS) {
    const value = (input as Record<string, unknown>)[key]
    if (typeof value !== 'string') continue
    const clean = value.replace(CONTROL_CHARACTERS, '').trim().slice(0, MAX_ATTRIBUTION_LENGTH)
    if (clean !== '') out[key] = clean
  }
  return Object.keys(out).length > 0 ? out : undefined
}

/** The campaign source the funnel counts it under: its utm_source, or "(none)". */
export function sourceOf(attribution: Attribution | undefined): string {
  return attribution?.utm_source ?? NO_SOURCE
}

/** The "attribution" field: a JSON object, cleaned; a field that is not one is refused as any malformed field is. */
export function readAttribution(sent: unknown): Attribution | undefined {
  if (sent === undefined) return undefined
  return cleanAttribution(
    readJsonObjectField(
      sent,
      `"${ATTRIBUTION_FIELD}" must be a JSON object of the landing's campaign parameters`,
    ),
  )
}
