/** Reading the parts of a claim request that the JSON Schema does not cover. */
import { AppError } from '../../src/app-error.ts'
import { SIGNATURE_REQUIRED_MESSAGE } from '../../src/claim-messages.ts'
import { isDecodablePng } from '../uploads/check-png.ts'
import { sniffImage } from '../uploads/sniff-image.ts'
import type { UploadedFile } from './create-claim.ts'

const ONE_DAY_MS = 24 * 60 * 60 * 1000

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
    message: `"agreementDate" must be today's date as YYYY-MM-DD (${allowed.join(', ')})`,
  })
}

export function parseData(rawData: unknown, file: UploadedFile | undefined): Record<string, unknown> {
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

/** The signature must be a PNG that decodes; `message` is the form's own "signature required" text. */
export async function assertSignatureIsPng(
  dataUrl: string,
  message = SIGNATURE_REQUIRED_MESSAGE,
): Promise<void> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')
  const image = await sniffImage(bytes)
  // a PNG that only starts right would break the agreement's PDF later: it must decode now
  if (image?.mime !== 'image/png' || !isDecodablePng(bytes)) {
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: `"signature": ${message}`,
      fields: { signature: { __errors: [message] } },
    })
  }
}
