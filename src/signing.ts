import { AppError } from './app-error.ts'

/** How a claimant signed: drawn on the pad, or their full name typed and drawn in a signature style. */
export type SigningMethod = 'drawn' | 'typed'

export interface Signing {
  method: SigningMethod
  /** The name as typed (trimmed); only when typed. */
  typedName: string | undefined
}

export const SIGNING_FIELDS = ['signatureMethod', 'typedSignature'] as const
const MAX_TYPED_NAME = 200
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/

/**
 * Splits how the claimant signed from their answers: `signatureMethod` ('drawn' when left out, as by
 * an older page) and, for a typed signature, `typedSignature`. A typed signature without its name, or a
 * name with a drawn one, is refused naming the field.
 * @example readSigning({ firstName: 'Ana', signatureMethod: 'typed', typedSignature: ' Ana López ' })
 * // { signing: { method: 'typed', typedName: 'Ana López' }, answers: { firstName: 'Ana' } }
 */
export function readSigning(data: Record<string, unknown>): {
  signing: Signing
  answers: Record<string, unknown>
} {
  const { signatureMethod = 'drawn', typedSignature, ...answers } = data
  if (signatureMethod !== 'drawn' && signatureMethod !== 'typed') {
    throw refused('signatureMethod', '"signatureMethod" must be "drawn" or "typed"')
  }
  if (signatureMethod === 'drawn') {
    if (typedSignature !== undefined) {
      throw refused('typedSignature', '"typedSignature" goes only with "signatureMethod": "typed"')
    }
    return { signing: { method: 'drawn', typedName: undefined }, answers }
  }
  const typedName = typeof typedSignature === 'string' ? typedSignature.trim() : ''
  if (typedName === '' || typedName.length > MAX_TYPED_NAME || CONTROL_CHARACTERS.test(typedName)) {
    throw refused(
      'typedSignature',
      `"typedSignature" must be the typed full name: 1 to ${MAX_TYPED_NAME} characters, no control characters`,
    )
  }
  return { signing: { method: 'typed', typedName }, answers }
}

function refused(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message,
    fields: { [field]: { __errors: [message] } },
  })
}
