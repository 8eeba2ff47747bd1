import type { CureFix } from '../review-config.ts'

/** The page a deficiency notice's link opens; the token is in the fragment, never sent in a request's URL. */
export const CURE_PAGE_PATH = '/cure'

/** The cure page's and endpoints' texts; the Spanish ones are in forms/es/ui/cure.json. */
export const CURE_PAGE_TITLE = 'Fix your claim'
export const CURE_LINK_INVALID_MESSAGE =
  'This link is incomplete or not valid. Please open the link from your e-mail again, exactly as it was sent.'
export const CURE_LINK_USED_MESSAGE = 'Your corrections were already received. Thank you.'
export const CURE_LINK_EXPIRED_MESSAGE = 'The time to fix this claim has ended.'
export const CURE_CONTACT_TEXT = 'Questions? Write to us at {email}.'
export const CURE_SCREENSHOT_REQUIRED_MESSAGE = 'Please upload a new bank statement screenshot (PNG or JPEG).'
export const CURE_NAME_REQUIRED_MESSAGE = 'Please enter your first and last name.'
export const CURE_AGE_REQUIRED_MESSAGE = 'Please confirm that you are 18 or over.'
export const CURE_DONE_MESSAGE = 'Thank you. We received your corrections and will review your claim again.'

/** A token: 32 random bytes, base64url. */
export const CURE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** POST /api/cures/open: the token from the fragment. */
export interface OpenCureRequest {
  token: string
}

/** What the cure page shows: what is wrong, what to send, until when. Only the claimant's own claim. */
export interface CureView {
  appName: string
  /** The reasons' texts for the claimant, in the claim's language. */
  problems: string[]
  fix: CureFix[]
  /** The name on the claim, for the name fields. */
  firstName: string
  lastName: string
  /** The period's end: the last moment of its last day in the claimant's zone. */
  expiresAt: string
  /** The claimant's zone (their main form's state's, else the firm's): the page names the day in it. */
  timeZone: string
}

/** POST /api/cures (multipart): the token and the corrections as JSON in "data", the screenshot as a file. */
export interface CureData {
  token: string
  firstName?: string
  lastName?: string
  over18?: boolean
  /** A new signature: a PNG data URL, drawn or typed, on the agreement already signed. */
  signature?: string
  signatureMethod?: 'drawn' | 'typed'
}

export interface CureSent {
  amendmentId: number
}
