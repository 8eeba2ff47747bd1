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
