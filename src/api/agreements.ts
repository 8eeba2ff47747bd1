import type { Confirmed, Disowned, DisownUndone } from '../confirmation-messages.ts'
import type { Step2Link } from '../journey-config.ts'
import type { ClaimantState } from '../review-config.ts'
import type { ClaimSigningMethod } from '../signing.ts'

/**
 * POST /api/agreements/lookup and POST /api/agreements/resend (202): the same answer whether or not
 * the details, or the spent link, stand for an agreement.
 */
export interface AgreementLinkSent {
  message: string
}

/** POST /api/agreements/open: the claimant's own signed agreements, the main form's first. */
export interface OpenedAgreementLink {
  agreements: FoundAgreement[]
  /** What /api/agreements/download takes, as "key", until downloadsUntil. */
  downloadKey: string
  downloadsUntil: string
  /** Where each claim stands, and the apps still to do. */
  status: ClaimantStatus
}

/** The claimant's claims as they should see them, and the apps chosen on the main form still without one. */
export interface ClaimantStatus {
  /** The main form's reference ("IN-000042"), when the claimant filled it in. */
  reference?: string
  claims: {
    claimId: number
    app: string
    appName: string
    state: ClaimantState
    /** A claim needing the claimant's attention: its cure page, with a link of its own. */
    cureUrl?: string
    /** A filed claim's case number with the arbitration provider, once the firm has it. */
    caseNumber?: string
  }[]
  pending: Step2Link[]
  /** The other apps taking claims, for an app the claimant did not choose on the main form. */
  others: Step2Link[]
}

export interface FoundAgreementBase {
  /** The app, or on the main form the apps chosen, that the agreement names. */
  appName: string
  signedAt: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  /** Drawn on the pad, typed (typedSignature is the full name as typed), or adopted from the main form. */
  signatureMethod: ClaimSigningMethod
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
  | (FoundAgreementBase & {
      kind: 'intake'
      intakeId: number
      /** The postal address sent with the intake, one line: "5 Main St, Apt 2, Albany, NY 12207". */
      address: string
      /** Confirmed from the claimant's e-mail ("Confirm it was you"): only then is its address the claims'. */
      confirmedAt: string | null
      /** "This wasn't me": its claims name it no more. */
      disownedAt: string | null
    })

/** Which signed agreement a download asks for (with the downloadKey). */
export type AgreementRef = { claimId: number } | { intakeId: number }

/**
 * POST /api/agreements/intake-answer: the claimant's answer, on their opened page, to a main-form intake
 * sent with their e-mail and phone: it was them ("confirm"), or it was not ("not-me").
 * @example { key: opened.downloadKey, intakeId: 42, answer: 'not-me' }
 */
export interface IntakeAnswerRequest {
  /** The opened link's downloadKey. */
  key: string
  intakeId: number
  answer: 'confirm' | 'not-me' | 'undo-not-me'
}

/**
 * What POST /api/agreements/intake-answer answers: Confirmed for "confirm", Disowned for "not-me",
 * DisownUndone for "undo-not-me".
 */
export type IntakeAnswered = Confirmed | Disowned | DisownUndone
