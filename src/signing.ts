import { AppError } from './app-error.ts'

/** How a claimant signed: drawn on the pad, or their full name typed and drawn in a signature style. */
export type SigningMethod = 'drawn' | 'typed'

export interface Signing {
  method: SigningMethod
  /** The name as typed (trimmed); only when typed. */
  typedName: string | undefined
}

/**
 * How a Step 2 claimant signed: also "adopted", the signature of their main form taken over with one
 * press. The request then carries no image; the server takes the intake's (only by its Step 2 link).
 */
export type ClaimSigningMethod = SigningMethod | 'adopted'

export type ClaimSigning = Signing | { method: 'adopted'; typedName: undefined }

/** The request fields that say how the claimant signed; never part of a config's schema. */
export const SIGNATURE_METHOD_FIELD = 'signatureMethod'
export const TYPED_SIGNATURE_FIELD = 'typedSignature'
export const MAX_TYPED_SIGNATURE = 200
const CONTROL_CHARACTERS = /\p{Cc}/u

/**
 * Checks how the claimant signed: `signatureMethod` is "drawn" (also when left out, as by a page from
 * before typed signatures) or "typed", and a typed signature carries the full name as typed, 1 to 200
 * characters once trimmed, no control characters. Anything else is refused with 422 naming the field.
 * @example readSigning({ signatureMethod: 'typed', typedSignature: ' Ana López ' })
 * // { method: 'typed', typedName: 'Ana López' }
 */
export function readSigning({
  signatureMethod = 'drawn',
  typedSignature,
}: {
  signatureMethod?: unknown
  typedSignature?: unknown
}): Signing {
  if (signatureMethod !== 'drawn' && signatureMethod !== 'typed') {
    throw refused(SIGNATURE_METHOD_FIELD, `"${SIGNATURE_METHOD_FIELD}" must be "drawn" or "typed"`)
  }
  if (signatureMethod === 'drawn') {
    if (typedSignature !== undefined) {
      throw refused(
        TYPED_SIGNATURE_FIELD,
        `"${TYPED_SIGNATURE_FIELD}" goes only with "${SIGNATURE_METHOD_FIELD}": "typed"; leave it out for a drawn signature`,
      )
    }
    return { method: 'drawn', typedName: undefined }
  }
  const typedName = typeof typedSignature === 'string' ? typedSignature.trim() : ''
  const length = [...typedName].length
  if (length === 0 || length > MAX_TYPED_SIGNATURE || CONTROL_CHARACTERS.test(typedName)) {
    throw refused(
      TYPED_SIGNATURE_FIELD,
      `"${TYPED_SIGNATURE_FIELD}" must be the full name as typed: 1 to ${MAX_TYPED_SIGNATURE} characters, no control characters`,
    )
  }
  return { method: 'typed', typedName }
}

/**
 * A JSON request's answers without the signing fields, which readSigning checks instead of the schema.
 * @example splitSigning({ firstName: 'Ana', signatureMethod: 'drawn' })
 * // { signing: { method: 'drawn', typedName: undefined }, answers: { firstName: 'Ana' } }
 */
export function splitSigning(data: Record<string, unknown>): {
  signing: Signing
  answers: Record<string, unknown>
} {
  const {
    [SIGNATURE_METHOD_FIELD]: signatureMethod,
    [TYPED_SIGNATURE_FIELD]: typedSignature,
    ...answers
  } = data
  return { signing: readSigning({ signatureMethod, typedSignature }), answers }
}

/**
 * readSigning for a Step 2 claim, which may also adopt the main form's signature: "adopted" carries no
 * typed name (and no image, which the server takes from the intake).
 * @example readClaimSigning({ signatureMethod: 'adopted' }) // { method: 'adopted', typedName: undefined }
 */
export function readClaimSigning(sent: {
  signatureMethod?: unknown
  typedSignature?: unknown
}): ClaimSigning {
  if (sent.signatureMethod !== 'adopted') {
    if (
      sent.signatureMethod === undefined ||
      sent.signatureMethod === 'drawn' ||
      sent.signatureMethod === 'typed'
    ) {
      return readSigning(sent)
    }
    throw refused(SIGNATURE_METHOD_FIELD, `"${SIGNATURE_METHOD_FIELD}" must be "drawn", "typed" or "adopted"`)
  }
  if (sent.typedSignature !== undefined) {
    throw refused(
      TYPED_SIGNATURE_FIELD,
      `"${TYPED_SIGNATURE_FIELD}" goes only with "${SIGNATURE_METHOD_FIELD}": "typed"; leave it out for an adopted signature`,
    )
  }
  return { method: 'adopted', typedName: undefined }
}

function refused(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message,
    fields: { [field]: { __errors: [message] } },
  })
}
