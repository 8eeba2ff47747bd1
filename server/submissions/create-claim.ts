import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { claimValidator } from '../../src/claim-validator.ts'
import { isFormOpen, type ClaimData, type FormConfig } from '../../src/form-config.ts'
import { formatPhone } from '../../src/phone.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import type { Database } from '../db/database.ts'
import { isUniqueViolation } from '../db/create-db.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { sniffImage } from '../uploads/sniff-image.ts'
import {
  DUPLICATE_CLAIM_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  SIGNATURE_REQUIRED_MESSAGE,
} from '../../src/claim-messages.ts'
import { hasClaimForPhone, insertClaim } from './claim.repository.ts'

export interface UploadedFile {
  originalname: string
  buffer: Buffer
}

export interface CreatedClaim {
  id: number
  createdAt: string
}

/**
 * Checks a Step 2 claim as the browser did (same schema), checks the screenshot and the signature by
 * their bytes, stores the file, then the row. Any failure leaves neither row nor file behind.
 */
export async function createClaim({
  db,
  storage,
  config,
  rawData,
  file,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  config: FormConfig
  rawData: unknown
  file: UploadedFile | undefined
}): Promise<CreatedClaim> {
  assertFormTakesClaims(config)
  const data = parseData(rawData, file)
  const check = validateSubmission({ validator: claimValidator, schema: config.schema, data })
  if (!check.isValid) {
    const [field, { __errors }] = Object.entries(check.fields)[0] ?? ['', { __errors: ['is invalid'] }]
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: `"${field}": ${__errors[0]}`,
      fields: check.fields,
    })
  }
  const claim = data as unknown as ClaimData
  const image = await sniffImage(file!.buffer)
  if (!image) {
    throw new AppError('UPLOAD_NOT_IMAGE', {
      status: 422,
      message: `"screenshotFile": ${NOT_AN_IMAGE_MESSAGE}`,
      fields: { screenshotFile: { __errors: [NOT_AN_IMAGE_MESSAGE] } },
    })
  }
  await assertSignatureIsPng(claim.signature)

  const phoneNumber = formatPhone(claim.phoneNumber)
  if (await hasClaimForPhone(db, { app: config.slug, phoneNumber })) throw duplicateError()

  const key = await storage.save({ app: config.slug, extension: image.extension, bytes: file!.buffer })
  const createdAt = new Date().toISOString()
  try {
    const { id } = await insertClaim(db, {
      app: config.slug,
      created_at: createdAt,
      first_name: claim.firstName.trim(),
      last_name: claim.lastName.trim(),
      email: claim.email.trim().toLowerCase(),
      phone_number: phoneNumber,
      cash_advance_count: claim.cashAdvanceCount,
      membership_months: claim.membershipMonths,
      screenshot_key: key,
      screenshot_type: image.mime,
      signature: claim.signature,
    })
    return { id, createdAt }
  } catch (error) {
    await storage.remove(key)
    if (isUniqueViolation(error)) throw duplicateError()
    throw error
  }
}

/** A closed app (klover) refuses claims with its notice. */
export function assertFormTakesClaims(config: FormConfig): void {
  if (isFormOpen(config)) return
  const notice = config.status.state === 'closed' ? config.status.notice : undefined
  throw new AppError('FORM_CLOSED', {
    status: 410,
    message: notice ? `${notice.heading}. ${notice.body}` : `form "${config.slug}" is closed`,
  })
}

function parseData(rawData: unknown, file: UploadedFile | undefined): Record<string, unknown> {
  if (typeof rawData !== 'string') {
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: 'send the claim as multipart/form-data with a "data" field holding its JSON',
    })
  }
  let data: unknown
  try {
    data = JSON.parse(rawData)
  } catch {
    throw new AppError('BAD_REQUEST', { status: 400, message: 'the "data" field is not valid JSON' })
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new AppError('BAD_REQUEST', { status: 400, message: 'the "data" field must be a JSON object' })
  }
  // the file itself is the truth: a name sent in the JSON without a file does not count
  const { screenshotFile: _ignored, ...rest } = data as Record<string, unknown>
  // the name only tells the schema a file came; it is never stored, so a long one is cut, not refused
  return file ? { ...rest, screenshotFile: file.originalname.slice(0, 255) || 'screenshot' } : rest
}

async function assertSignatureIsPng(dataUrl: string): Promise<void> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')
  const image = await sniffImage(bytes)
  if (image?.mime !== 'image/png') {
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: `"signature": ${SIGNATURE_REQUIRED_MESSAGE}`,
      fields: { signature: { __errors: [SIGNATURE_REQUIRED_MESSAGE] } },
    })
  }
}

function duplicateError(): AppError {
  return new AppError('DUPLICATE_SUBMISSION', { status: 409, message: DUPLICATE_CLAIM_MESSAGE })
}
