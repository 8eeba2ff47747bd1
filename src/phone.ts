/** Most digits a US phone number holds, without its country code. */
export const PHONE_DIGITS = 10
/** Longest formatted phone, '(123) 456-7890'. */
export const PHONE_MAX_LENGTH = 14
/**
 * Longest phone a claimant may type or paste: '+1 (123) 456-7890' with room for the spaces, dots and
 * dashes people and address books put in; the field shows and stores the ten digits.
 */
export const PHONE_INPUT_MAX_LENGTH = 24

/**
 * The national digits of a US phone number: everything but digits dropped, then a leading country
 * code 1 (typed as '1', '+1' or '+1 ') dropped too. No US area code starts with 1, so a first 1 can only
 * be the country code. Not cut to ten: a number of the wrong length stays wrong.
 * @example phoneDigits('+1 (555) 867-5309') // '5558675309'
 */
export function phoneDigits(input: string): string {
  const digits = input.replace(/\D/g, '')
  return digits.startsWith('1') ? digits.slice(1) : digits
}

/**
 * Whether ten national digits can be a US number: area code and exchange each start with 2 to 9.
 * @example isPossibleUsPhone('5558675309') // true; isPossibleUsPhone('1558675309') // false
 */
export function isPossibleUsPhone(digits: string): boolean {
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(digits)
}

/**
 * The phone as the field shows it while the claimant types, pastes or autofills: the national digits
 * (at most ten) as (XXX) XXX-XXXX, filled progressively.
 * @example formatPhone('1-555-867-5309') // '(555) 867-5309'; formatPhone('5558') // '(555) 8'
 */
export function formatPhone(input: string): string {
  const digits = phoneDigits(input).slice(0, PHONE_DIGITS)
  if (digits.length === 0) return ''
  if (digits.length < 4) return `(${digits}`
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
}

/**
 * A phone as the server stores it: '(555) 867-5309' when the input is a possible US number in any
 * usual writing (+1, 1, spaces, dots, dashes, brackets); otherwise the input as it came, so the form's
 * own check refuses it with the form's phone message.
 * @example normalizePhone('+1 555.867.5309') // '(555) 867-5309'; normalizePhone('555-0100') // '555-0100'
 */
export function normalizePhone(input: string): string {
  if (input.length > PHONE_INPUT_MAX_LENGTH || !/^[\s\d+().-]*$/.test(input) || input.lastIndexOf('+') > 0) {
    return input
  }
  const digits = phoneDigits(input)
  return digits.length === PHONE_DIGITS && isPossibleUsPhone(digits) ? formatPhone(digits) : input
}
