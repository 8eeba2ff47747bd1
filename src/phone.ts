/** Most digits a US phone number holds. */
export const PHONE_DIGITS = 10
/** Longest formatted phone, '(123) 456-7890'. */
export const PHONE_MAX_LENGTH = 14

/**
 * Strips everything but digits, keeps the first ten and formats them progressively.
 * @example formatPhone('1234') // '(123) 4'
 */
export function formatPhone(input: string): string {
  const digits = phoneDigits(input)
  if (digits.length === 0) return ''
  if (digits.length < 4) return `(${digits}`
  if (digits.length < 7) return `(${digits.slice(0, 3)}) ${digits.slice(3)}`
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`
}

/**
 * The digits of a phone number, at most ten.
 * @example phoneDigits('(123) 456-7890') // '1234567890'
 */
export function phoneDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, PHONE_DIGITS)
}
