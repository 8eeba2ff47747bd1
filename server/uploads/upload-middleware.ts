import type { RequestHandler } from 'express'
import multer from 'multer'
import { AppError } from '../../src/app-error.ts'
import { MAX_UPLOAD_BYTES } from '../../src/claim-messages.ts'
import { CLAIM_MULTIPART_LIMITS, DATA_FIELD, SCREENSHOT_FIELD } from '../../src/api/claim-request.ts'
import { describeContentType } from '../error-handler.ts'

/** The screenshot as multer holds it in memory until it is checked and stored. */
export interface UploadedFile {
  originalname: string
  buffer: Buffer
}

const parseClaimMultipart = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: MAX_UPLOAD_BYTES, ...CLAIM_MULTIPART_LIMITS, fieldSize: 2 * 1024 * 1024 },
}).single(SCREENSHOT_FIELD)

/**
 * Multipart parsing for a claim: one JSON `data` field and one `screenshot` file, held in memory until
 * checked. Anything but multipart/form-data is refused before the body is read.
 */
export const claimUpload: RequestHandler = (req, res, next) => {
  if (!req.is('multipart/form-data')) {
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: `send the claim as multipart/form-data with a "${DATA_FIELD}" field holding its JSON (${describeContentType(req)})`,
    })
  }
  if (!hasBoundary(req.get('content-type') ?? '')) {
    // busboy reads a body with an empty boundary as an empty form, which would blame a missing "data" field
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: `multipart/form-data needs a boundary parameter (${describeContentType(req)})`,
    })
  }
  parseClaimMultipart(req, res, (error?: unknown) => {
    if (!error || error instanceof multer.MulterError) return next(error)
    // busboy's own errors ('Unexpected end of form', 'Malformed part header', …) carry no status: the body is broken
    next(
      new AppError('BAD_REQUEST', {
        status: 400,
        message: `malformed multipart body: ${error instanceof Error ? error.message : String(error)}`,
      }),
    )
  })
}

function hasBoundary(contentType: string): boolean {
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType)
  return (match?.[1] ?? match?.[2] ?? '') !== ''
}
