import { storedPhoneCandidates } from './phone.ts'

/** The agreement lookup's texts, verbatim from the product spec where it has them. */
export const LOOKUP_EMAIL_BLANK_MESSAGE = 'Please enter your email address'
export const LOOKUP_EMAIL_INVALID_MESSAGE = 'Please enter a valid email address'
export const LOOKUP_PHONE_BLANK_MESSAGE = 'Please enter the phone number you used for Step 2'
export const LOOKUP_PHONE_INVALID_MESSAGE = 'Please enter a valid 10-digit phone number'
/** The spec's text, naming the phone too: the lookup needs both. */
export const AGREEMENT_NOT_FOUND_MESSAGE =
  'No agreement found for this email address and phone number. Please check both, or complete Step 2 first.'
export const LOOKUP_RATE_LIMITED_MESSAGE =
  'Too many agreement searches from your connection. Please wait 15 minutes and try again.'

/** The lookup's one answer, whether or not the details match an agreement. */
export const LINK_SENT_MESSAGE =
  'If we hold an agreement for these details, we have sent a link to that email address. It works once, within 30 minutes.'
export const LINK_USED_OR_EXPIRED_MESSAGE =
  'This link has already been used or has expired. Ask for a new one below.'
export const LINK_INCOMPLETE_MESSAGE =
  'This link is incomplete. Open the whole link from the email, or ask for a new one below.'
export const DOWNLOAD_KEY_EXPIRED_MESSAGE =
  'The time to download these agreements has run out. Reload this page to ask for a new link.'
/** The same for an intake of another claimant and for none: the key learns nothing of either. */
export const INTAKE_NOT_FOUND_MESSAGE =
  'This main form submission is not among the ones sent with your email address and phone number. Ask for a new link to see them as they are now.'

export const DOWNLOAD_RATE_LIMITED_MESSAGE =
  'Too many downloads from your connection. Please wait 15 minutes and try again.'

/** The "simple email shape" of the spec. */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * The lookup form's problems, by field; empty when both fields are usable.
 * @example checkLookupInput({ email: '', phone: '' }).email // 'Please enter your email address'
 */
export function checkLookupInput({ email, phone }: { email: string; phone: string }): Record<string, string> {
  const problems: Record<string, string> = {}
  if (email.trim() === '') problems.email = LOOKUP_EMAIL_BLANK_MESSAGE
  else if (!EMAIL_SHAPE.test(email.trim())) problems.email = LOOKUP_EMAIL_INVALID_MESSAGE
  if (phone.replace(/\D/g, '') === '') problems.phone = LOOKUP_PHONE_BLANK_MESSAGE
  // any ten digits: claims filed before the area-code and exchange rule must stay findable
  else if (storedPhoneCandidates(phone).length === 0) problems.phone = LOOKUP_PHONE_INVALID_MESSAGE
  return problems
}
