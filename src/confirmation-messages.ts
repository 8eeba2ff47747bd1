/** The confirmation page's and endpoint's texts; the Spanish ones are in forms/es/ui/confirmation.json. */
import { DAY_MS } from './durations.ts'
export const CONFIRMATION_LINK_TEXT = 'Confirm it was you'
export const CONFIRMATION_EMAIL_TEXT =
  'Did you file this claim yourself? Please confirm it by opening this link: {link}'
export const CONFIRMATION_INVALID_MESSAGE =
  'This confirmation link is incomplete. Please open the link from your e-mail again, exactly as it was sent.'
export const CONFIRMATION_NOT_FOUND_MESSAGE =
  'This confirmation link is not valid. Please open the link from your e-mail again, exactly as it was sent.'

export const DISOWN_UNDO_EXPIRED_MESSAGE =
  "“This wasn't me” can be taken back only within a day of pressing it. Please write to us if it was you after all."
export const DISOWN_UNDO_TAKEN_MESSAGE =
  'This can no longer be taken back: a newer claim form was sent with the same e-mail address and phone number since. Please write to us if it was you after all.'

/** How long "This wasn't me" can be taken back after it was pressed: a day. */
export const DISOWN_UNDO_MS = DAY_MS

/** A link's token: 32 random bytes, base64url (43 characters). */
export const CONFIRMATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** POST /api/confirmations (and /claim, /not-me): the token from the e-mail's link. */
export interface ConfirmRequest {
  token: string
}

/** POST /api/confirmations/claim: what the link names, for the page to say. */
export type LinkedRecord =
  | {
      of: 'claim'
      claimId: number
      appName: string
      filedAt: string
      confirmedAt: string | null
      disownedAt: string | null
    }
  | {
      /** The main form signed on the home page: the e-mail after it carries the link. */
      of: 'intake'
      reference: string
      appNames: string[]
      filedAt: string
      confirmedAt: string | null
      disownedAt: string | null
    }

/** POST /api/confirmations/not-me: "This wasn't me", recorded. */
export interface Disowned {
  disownedAt: string
  alreadyDisowned: boolean
}

/** POST /api/confirmations/undo-not-me: "This wasn't me" taken back, within a day of it. */
export interface DisownUndone {
  undoneAt: string
}

/** What POST /api/confirmations answers: when it was confirmed, and whether that was before. */
export interface Confirmed {
  confirmedAt: string
  alreadyConfirmed: boolean
}
