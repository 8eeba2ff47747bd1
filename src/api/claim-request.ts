import { ATTRIBUTION_FIELD, type Attribution } from '../attribution.ts'
import { SIGNATURE_METHOD_FIELD, TYPED_SIGNATURE_FIELD, type ClaimSigningMethod } from '../signing.ts'
import { DEFAULT_LOCALE, type Locale } from '../translate.ts'
import { JOURNEY_TOKEN_FIELD } from './journey.ts'
import { SIGNALS_FIELD, type FormSignals } from '../form-signals.ts'

/** The claim's answers as JSON, in the multipart field of this name. */
export const DATA_FIELD = 'data'
/** The date the form printed on the agreement (YYYY-MM-DD), beside the answers. */
export const AGREEMENT_DATE_FIELD = 'agreementDate'
/** The bank-statement screenshot, the claim's one file. */
export const SCREENSHOT_FIELD = 'screenshot'

/**
 * Every text field a claim request may carry, in the order the form sends them. The server's multipart
 * limits are counted from this list, so a field the form learns to send is a field the server takes.
 */
export const CLAIM_TEXT_FIELDS = [
  DATA_FIELD,
  AGREEMENT_DATE_FIELD,
  SIGNATURE_METHOD_FIELD,
  TYPED_SIGNATURE_FIELD,
  JOURNEY_TOKEN_FIELD,
  ATTRIBUTION_FIELD,
  SIGNALS_FIELD,
] as const

/** What a claim's multipart body may hold: each text field once and the screenshot, nothing more. */
export const CLAIM_MULTIPART_LIMITS = {
  fields: CLAIM_TEXT_FIELDS.length,
  files: 1,
  parts: CLAIM_TEXT_FIELDS.length + 1,
} as const

/** How the claimant signed, as the signature widget reports it ("adopted" only on a Step 2 form). */
export interface SigningChoice {
  method: ClaimSigningMethod
  /** The name as typed, when typed. */
  typedName?: string | undefined
}

/** What a form sends beside its answers, so the signed record says which way it was signed. */
export function signingFields(signing: SigningChoice): {
  signatureMethod: ClaimSigningMethod
  typedSignature?: string
} {
  if (signing.method === 'typed') {
    return { [SIGNATURE_METHOD_FIELD]: 'typed', [TYPED_SIGNATURE_FIELD]: signing.typedName ?? '' }
  }
  return { [SIGNATURE_METHOD_FIELD]: signing.method }
}

/**
 * An API address in a language; English needs no parameter, and an address that names one keeps it.
 * @example pathInLocale('/api/forms/brigit/submissions', 'es') // '/api/forms/brigit/submissions?lang=es'
 */
export function pathInLocale(path: string, locale: Locale): string {
  if (locale === DEFAULT_LOCALE || /[?&]lang=/.test(path)) return path
  return `${path}${path.includes('?') ? '&' : '?'}lang=${locale}`
}

export interface ClaimRequestInput {
  slug: string
  data: Record<string, unknown>
  agreementDate: string
  signing: SigningChoice
  /** The form's language, which the agreement is signed in. */
  locale: Locale
  /** The token of the Step 2 link the claimant came by: the claim is tied to their intake. */
  journeyToken?: string | undefined
  /** The landing's campaign parameters, if the claimant came from a campaign. */
  attribution?: Attribution | undefined
  /** What the form saw as it was filled in (src/form-signals.ts). */
  signals?: FormSignals | undefined
}

/** A claim request as the form sends it: where, then its text fields in order; the screenshot goes last. */
export interface ClaimRequest {
  path: string
  fields: [name: (typeof CLAIM_TEXT_FIELDS)[number], value: string][]
}

/**
 * The one description of a claim request, used by the form and by the tests that post what it posts.
 * @example claimRequest({ slug: 'brigit', data, agreementDate: '2026-12-07', signing: { method: 'drawn' }, locale: 'en' })
 * // { path: '/api/forms/brigit/submissions', fields: [['data', '{…}'], ['agreementDate', '2026-12-07'], ['signatureMethod', 'drawn']] }
 */
export function claimRequest({
  slug,
  data,
  agreementDate,
  signing,
  locale,
  journeyToken,
  attribution,
  signals,
}: ClaimRequestInput): ClaimRequest {
  const fields: ClaimRequest['fields'] = [
    [DATA_FIELD, JSON.stringify(data)],
    [AGREEMENT_DATE_FIELD, agreementDate],
  ]
  for (const [name, value] of Object.entries(signingFields(signing))) {
    fields.push([name as typeof SIGNATURE_METHOD_FIELD | typeof TYPED_SIGNATURE_FIELD, value])
  }
  if (journeyToken) fields.push([JOURNEY_TOKEN_FIELD, journeyToken])
  if (attribution && Object.keys(attribution).length > 0) {
    fields.push([ATTRIBUTION_FIELD, JSON.stringify(attribution)])
  }
  if (signals) fields.push([SIGNALS_FIELD, JSON.stringify(signals)])
  return { path: pathInLocale(`/api/forms/${encodeURIComponent(slug)}/submissions`, locale), fields }
}

export interface IntakeRequestInput {
  data: Record<string, unknown>
  agreementDate: string
  signing: SigningChoice
  /** The page's language, which the agreement is signed in. */
  locale: Locale
  /** The landing's campaign parameters, if the claimant came from a campaign. */
  attribution?: Attribution | undefined
  /** What the form saw as it was filled in (src/form-signals.ts). */
  signals?: FormSignals | undefined
}

/**
 * The main form's request as the intake page sends it: JSON with the answers, how the claimant signed
 * and where they came from; the printed date in the address.
 */
export function intakeRequest({
  data,
  agreementDate,
  signing,
  locale,
  attribution,
  signals,
}: IntakeRequestInput): {
  path: string
  body: Record<string, unknown>
} {
  const body: Record<string, unknown> = { ...data, ...signingFields(signing) }
  if (attribution && Object.keys(attribution).length > 0) body[ATTRIBUTION_FIELD] = attribution
  if (signals) body[SIGNALS_FIELD] = signals
  return {
    path: pathInLocale(`/api/intake?${AGREEMENT_DATE_FIELD}=${encodeURIComponent(agreementDate)}`, locale),
    body,
  }
}
