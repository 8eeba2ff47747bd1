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
