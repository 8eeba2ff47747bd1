import type { ClaimSigningMethod } from '../../../src/signing.ts'

export type SigningMethod = ClaimSigningMethod

export interface Signing {
  method: SigningMethod
  /** The name as typed, when typed. */
  typedName?: string
}

/** The signature widget tells its form how the claimant signed (formContext.signing). */
export interface SigningReport {
  report(signing: Signing): void
  /**
   * The page was opened by a Step 2 link: the widget offers the main form's signature, which the server
   * takes from the intake (the browser never holds it).
   */
  canAdopt?: boolean
}

/**
 * What the signature field holds while the main form's signature is adopted: a blank 1×1 PNG, so the
 * form's own schema passes; the form sends no image with an adopted signature.
 */
export const ADOPTED_SIGNATURE_PLACEHOLDER =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='
