/** Most digits a US phone number holds, without its country code. */
export const PHONE_DIGITS = 10
/** Longest formatted phone, '(123) 456-7890'. */
export const PHONE_MAX_LENGTH = 14
/**
 * Longest phone a claimant may type or paste: '+1 (123) 456-7890' with room for the spaces, dots and
 * dashes people and address books put in; the field shows and stores the ten digits.
 */
export const PHONE_INPUT_MAX_LENGTH = 24

const US_COUNTRY_CODE = '1'

/** Whether a writing starts with '+', the sign of a country code. */
function hasPlus(input: string): boolean {
  return input.trimStart().startsWith('+')
}

/**
 * The national digits of a US phone number: everything but digits dropped, then a leading 1 dropped
 * when it is the country code: written after '+', or the first of eleven digits. A 1 in any other place
 * stays, so a number of the wrong length or with an impossible area code stays wrong. Never cut.
 * @example phoneDigits('+1 (555) 867-5309') // '5558675309'; phoneDigits('1555867') // '1555867'
 */
export function phoneDigits(input: string): string {
  const digits = input.replace(/\D/g, '')
  const isCountryCode =
    digits.startsWith(US_COUNTRY_CODE) && (hasPlus(input) || digits.length === PHONE_DIGITS + 1)
  return isCountryCode ? digits.slice(1) : digits
}

/**
 * Whether ten national digits can be a US number: area code and exchange each start with 2 to 9.
 * @example isPossibleUsPhone('5558675309') // true; isPossibleUsPhone('1558675309') // false
 */
export function isPossibleUsPhone(digits: string): boolean {
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(digits)
}

/** Up to ten national digits as (XXX) XXX-XXXX, filled progressively: '5558' is '(555) 8'. */
function groupDigits(digits: string): string {
  if (digits.length === 0) return ''
  if (digits.length < 4) return `(${digits}`
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
}

/**
 * The phone as the field shows it while the claimant types, pastes or autofills: the national digits
 * as (XXX) XXX-XXXX, filled progressively. A '+1' being typed stays in front ('+1 (555) 8') until the
 * ten digits are there; more digits than a US number holds are shown bare, never cut, so the
 * claimant sees what is wrong.
 * @example formatPhone('+1 555 867 5309') // '(555) 867-5309'; formatPhone('+1555') // '+1 (555'
 */
export function formatPhone(input: string): string {
  const digits = input.replace(/\D/g, '')
  if (hasPlus(input)) {
    if (!digits.startsWith(US_COUNTRY_CODE)) return `+${digits}`
    const national = digits.slice(1)
    if (national.length === PHONE_DIGITS) return groupDigits(national)
    if (national.length > PHONE_DIGITS) return `+${digits}`
    return national.length === 0 ? '+1' : `+1 ${groupDigits(national)}`
  }
  const national = phoneDigits(digits)
  return national.length > PHONE_DIGITS ? national : groupDigits(national)
}

/**
 * A phone as the server stores it: '(555) 867-5309' when the input is a possible US number in any
 * usual writing (+1, 1, spaces, dots, dashes, brackets); otherwise the input as it came, so the form's
 * own check refuses it with the form's phone message.
 * @example normalizePhone('+1 555.867.5309') // '(555) 867-5309'; normalizePhone('555-0100') // '555-0100'
 */
export function normalizePhone(input: string): string {
  if (input.length > PHONE_INPUT_MAX_LENGTH || !/^\s*\+?[\s\d().-]*$/.test(input)) return input
  const digits = phoneDigits(input)
  const plusWithoutUsCode = hasPlus(input) && !input.replace(/\D/g, '').startsWith(US_COUNTRY_CODE)
  if (plusWithoutUsCode || !isPossibleUsPhone(digits)) return input
  return groupDigits(digits)
}

/**
 * The stored phones a claimant's own writing can match at the agreement lookup: its ten national
 * digits formatted as stored, and the first ten of all its digits, the way claims were stored before
 * the country code was recognised ('1-555-867-5309' kept as '(155) 586-7530'). Any ten digits count,
 * since numbers were once stored without the area-code and exchange rule. Empty when no ten digits.
 * @example storedPhoneCandidates('1-555-867-5309') // ['(555) 867-5309', '(155) 586-7530']
 */
export function storedPhoneCandidates(input: string): string[] {
  const national = phoneDigits(input)
  if (national.length !== PHONE_DIGITS) return []
  const truncated = input.replace(/\D/g, '').slice(0, PHONE_DIGITS)
  return [...new Set([groupDigits(national), groupDigits(truncated)])]
}
