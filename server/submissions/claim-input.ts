/** Reading the parts of a claim request that the JSON Schema does not cover. */
import { AppError } from '../../src/app-error.ts'
import { SIGNATURE_REQUIRED_MESSAGE } from '../../src/claim-messages.ts'
import { SIGNATURE_METHOD_FIELD, TYPED_SIGNATURE_FIELD } from '../../src/signing.ts'
import { isSignaturePng } from '../uploads/check-png.ts'
import { DATA_FIELD, SCREENSHOT_FIELD } from '../uploads/upload-middleware.ts'
import type { UploadedFile } from './create-claim.ts'

const ONE_DAY_MS = 24 * 60 * 60 * 1000
const AGREEMENT_DATE_FIELD = 'agreementDate'
const TEXT_FIELDS: readonly string[] = [
  DATA_FIELD,
  AGREEMENT_DATE_FIELD,
  SIGNATURE_METHOD_FIELD,
  TYPED_SIGNATURE_FIELD,
]
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g

/** A claim request's text fields, each as sent (a string) or undefined when left out. */
export interface ClaimFields {
  rawData: unknown
  agreementDate: unknown
  /** How the claimant signed, beside the answers (readSigning checks them). */
  signatureMethod: unknown
  typedSignature: unknown
}

/**
 * The text fields of a claim request: one "data", at most one "agreementDate", "signatureMethod" and
 * "typedSignature", nothing else. A misspelt field would otherwise be dropped without a word (a wrong
 * agreementDate silently replaced by today, a typed signature recorded as drawn).
 */
export function readClaimFields(body: unknown): ClaimFields {
  const fields = (body ?? {}) as Record<string, unknown>
  for (const name of Object.keys(fields)) {
    if (name === SCREENSHOT_FIELD) {
      throw badRequest(`"${SCREENSHOT_FIELD}" must be sent as a file, not as a text field`)
    }
    if (!TEXT_FIELDS.includes(name)) {
      const shown = name.length > 100 ? `${name.slice(0, 100)}…` : name
      throw badRequest(
        `"${shown}" is not a field of a claim request; send only ${TEXT_FIELDS.map((field) => `"${field}"`).join(', ')} and the "${SCREENSHOT_FIELD}" file`,
      )
    }
    const value = fields[name]
    if (Array.isArray(value) && value.length > 1) {
      throw badRequest(`the "${name}" field was sent ${value.length} times; send it once`)
    }
    // multer reads "data[x]" or "data[]" as an object or an array
    if (typeof value !== 'string') {
      throw badRequest(`"${name}" must be one text field named exactly "${name}"`)
    }
  }
  return {
    rawData: fields[DATA_FIELD],
    agreementDate: fields[AGREEMENT_DATE_FIELD],
    signatureMethod: fields[SIGNATURE_METHOD_FIELD],
    typedSignature: fields[TYPED_SIGNATURE_FIELD],
  }
}

/**
 * The form prints the claimant's local date; it can only be the server's UTC date or one day either
 * side (time zones span UTC-12 to UTC+14). Without one, the server's UTC date is used.
 */
export function acceptAgreementDate(value: unknown, now: Date): string {
  const today = now.toISOString().slice(0, 10)
  if (value === undefined || value === '') return today
  const allowed = [-ONE_DAY_MS, 0, ONE_DAY_MS].map((offset) =>
    new Date(now.getTime() + offset).toISOString().slice(0, 10),
  )
  if (typeof value === 'string' && allowed.includes(value)) return value
  throw new AppError('BAD_REQUEST', {
    status: 400,
    message: `"${AGREEMENT_DATE_FIELD}" must be today's date as YYYY-MM-DD (${allowed.join(', ')})`,
  })
}

export function parseData(rawData: unknown, file: UploadedFile | undefined): Record<string, unknown> {
  if (typeof rawData !== 'string') {
    throw badRequest(
      `the "${DATA_FIELD}" field is missing; send the claim's JSON in a multipart field named "${DATA_FIELD}"`,
    )
  }
  let data: unknown
  try {
    data = JSON.parse(rawData)
  } catch (error) {
    throw badRequest(
      `the "${DATA_FIELD}" field is not valid JSON (${(error as Error).message.slice(0, 200)})`,
    )
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const found = data === null ? 'null' : Array.isArray(data) ? 'an array' : `a ${typeof data}`
    throw badRequest(`the "${DATA_FIELD}" field must be a JSON object, not ${found}`)
  }
  // the file itself is the truth: a name sent in the JSON without a file does not count
  const { screenshotFile: _ignored, ...rest } = data as Record<string, unknown>
  return file ? { ...rest, screenshotFile: fileNameForSchema(file.originalname) } : rest
}

/** The name is never stored, so a long or odd one is tidied (by code points, never halving a pair), not refused. */
function fileNameForSchema(originalName: string): string {
  return Array.from(originalName.replace(CONTROL_CHARACTERS, '')).slice(0, 255).join('') || 'screenshot'
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}

/**
 * The signature must be a PNG that decodes; `message` is the form's own "signature required" text and
 * `label` the field's, both in the claimant's language.
 */
export function assertSignatureIsPng(dataUrl: string, label: string, message: string): void {
  if (!isSignaturePng(dataUrl)) throw signatureError(label, message)
}

export function signatureError(label: string, message = SIGNATURE_REQUIRED_MESSAGE): AppError {
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message: `${label}: ${message}`,
    fields: { signature: { __errors: [message] } },
  })
}
