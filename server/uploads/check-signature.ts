import { AppError } from '../../src/app-error.ts'
import { SIGNATURE_REQUIRED_MESSAGE } from '../../src/claim-messages.ts'
import { isSignaturePng } from './check-png.ts'

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
