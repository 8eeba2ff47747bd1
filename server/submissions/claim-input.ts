/** Reading the parts of a claim request that the JSON Schema does not cover. */
import { AppError } from '../../src/app-error.ts'
import { ATTRIBUTION_FIELD, readAttribution, type Attribution } from '../../src/attribution.ts'
import { SIGNATURE_METHOD_FIELD, TYPED_SIGNATURE_FIELD } from '../../src/signing.ts'
import { JOURNEY_TOKEN_FIELD } from '../../src/api/journey.ts'
import { readFormSignals, SIGNALS_FIELD, type FormSignals } from '../../src/form-signals.ts'
import {
  AGREEMENT_DATE_FIELD,
  CLAIM_TEXT_FIELDS,
  DATA_FIELD,
  SCREENSHOT_FIELD,
} from '../../src/api/claim-request.ts'
import type { UploadedFile } from '../uploads/upload-middleware.ts'

const TEXT_FIELDS: readonly string[] = CLAIM_TEXT_FIELDS
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g

/** A claim request's text fields, each as sent (a string) or undefined when left out. */
export interface ClaimFields {
  rawData: unknown
  agreementDate: unknown
  /** How the claimant signed, beside the answers (readSigning checks them). */
  signatureMethod: unknown
  typedSignature: unknown
  /** The pre-fill token of the Step 2 link the claimant came by, if any: it ties the claim to the intake. */
  journeyToken: unknown
  /** Where the claimant came from, cleaned (src/attribution.ts); undefined when not sent. */
  attribution: Attribution | undefined
  /** What the form saw (src/form-signals.ts), cleaned; undefined when not sent. A filled trap is refused here. */
  signals: FormSignals | undefined
}

/**
 * The text fields of a claim request: one "data", at most one of each other field the form sends
 * (CLAIM_TEXT_FIELDS), nothing else. A misspelt field would otherwise be dropped without a word (a wrong
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
    journeyToken: fields[JOURNEY_TOKEN_FIELD],
    attribution: readAttribution(fields[ATTRIBUTION_FIELD]),
    signals: readFormSignals(fields[SIGNALS_FIELD]),
  }
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
