import type { SigningMethod } from '../signing.ts'

/** POST /api/agreements/lookup (202): the same answer whether or not the details match. */
export interface AgreementLinkSent {
  message: string
}

/** POST /api/agreements/open: the claimant's own signed agreements, the main form's first. */
export interface OpenedAgreementLink {
  agreements: FoundAgreement[]
  /** What /api/agreements/download takes, as "key", until downloadsUntil. */
  downloadKey: string
  downloadsUntil: string
}

export interface FoundAgreementBase {
  /** The app, or on the main form the apps chosen, that the agreement names. */
  appName: string
  signedAt: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  /** Drawn on the pad, or typed: then typedSignature is the full name as typed. */
  signatureMethod: SigningMethod
  typedSignature: string | null
  html: string
}

/** A Step 2 claim's agreement, or the one signed on the main form with the intake. */
export type FoundAgreement =
  | (FoundAgreementBase & {
      kind: 'claim'
      claimId: number
      app: string
      cashAdvanceCount: number
      membershipMonths: number
    })
  | (FoundAgreementBase & { kind: 'intake'; intakeId: number })

/** Which signed agreement a download asks for (with the downloadKey). */
export type AgreementRef = { claimId: number } | { intakeId: number }
