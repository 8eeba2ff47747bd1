import { SIGNATURE_NEEDED_MESSAGE } from '../../src/api/claimant-payouts.ts'
import type { PayoutFieldErrors } from '../../src/payout-details.ts'
import { readSigning } from '../../src/signing.ts'
import type { Translator } from '../../src/translate.ts'
import { checkSignaturePng } from '../uploads/check-png.ts'

/** A consent's or a W-9's signature as stored: the typed name, or the drawn PNG's data URL. */
export interface PayoutSignature {
  method: 'drawn' | 'typed'
  signature: string
}

/**
 * The signature a consent or a W-9 carries, checked as a claim's signing is: a typed one is the full
 * name (readSigning's rules), a drawn one a PNG that decodes and is no larger than a pad makes
 * (checkSignaturePng). Anything else is a message under `signature` (drawn) or `typedSignature`, so it
 * joins the form's other field errors in one 422.
 */
export function readPayoutSignature(
  body: { signatureMethod?: unknown; typedSignature?: unknown; signature?: unknown },
  t: Translator,
): { signing?: PayoutSignature; errors: PayoutFieldErrors } {
  if (body.signatureMethod === 'typed') {
    try {
      const { typedName } = readSigning({ signatureMethod: 'typed', typedSignature: body.typedSignature })
      return { signing: { method: 'typed', signature: typedName! }, errors: {} }
    } catch {
      return { errors: { typedSignature: [t(SIGNATURE_NEEDED_MESSAGE)] } }
    }
  }
  const { signature } = body
  if (
    body.signatureMethod === 'drawn' &&
    typeof signature === 'string' &&
    signature.startsWith('data:image/png;base64,') &&
    checkSignaturePng(signature) === 'png'
  ) {
    return { signing: { method: 'drawn', signature }, errors: {} }
  }
  return { errors: { signature: [t(SIGNATURE_NEEDED_MESSAGE)] } }
}
