import type { SigningMethod } from '../../../src/signing.ts'

export type { SigningMethod }

export interface Signing {
  method: SigningMethod
  /** The name as typed, when typed. */
  typedName?: string
}

/** The signature widget tells its form how the claimant signed (formContext.signing). */
export interface SigningReport {
  report(signing: Signing): void
}

/** What a form sends beside its answers, so the signed record says which way it was signed. */
export function signingFields(signing: Signing): { signatureMethod: SigningMethod; typedSignature?: string } {
  return signing.method === 'typed'
    ? { signatureMethod: 'typed', typedSignature: signing.typedName ?? '' }
    : { signatureMethod: 'drawn' }
}
