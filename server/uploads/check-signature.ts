import { AppError } from '../../src/app-error.ts'
import { SIGNATURE_REQUIRED_MESSAGE } from '../../src/claim-messages.ts'
import { checkSignaturePng, SIGNATURE_TOO_LARGE_MESSAGE, type SignatureCheck } from './check-png.ts'

/**
 * The signature must be a PNG that decodes, no larger than a signature pad makes; `message` is the
 * form's own "signature required" text and `label` the field's, both in the claimant's language.
 */
export function assertSignatureIsPng(dataUrl: string, label: string, message: string): void {
  assertSignatureAccepted(checkSignaturePng(dataUrl), label, message)
}

/** Refuses a signature checkSignaturePng did not pass: too large (422 naming the limits), or no PNG. */
export function assertSignatureAccepted(check: SignatureCheck, label: string, message: string): void {
  if (check === 'too-large') {
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: `${label}: ${SIGNATURE_TOO_LARGE_MESSAGE}`,
      fields: { signature: { __errors: [SIGNATURE_TOO_LARGE_MESSAGE] } },
    })
  }
  if (check !== 'png') throw signatureError(label, message)
}

export function signatureError(label: string, message = SIGNATURE_REQUIRED_MESSAGE): AppError {
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message: `${label}: ${message}`,
    fields: { signature: { __errors: [message] } },
  })
}
