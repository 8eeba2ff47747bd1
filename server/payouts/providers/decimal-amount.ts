/**
 * A whole number of cents as dollars with two decimals, made from the digits alone (no division, so no
 * float can round it): what PayPal's amounts, the check register and the positive-pay file hold.
 * @example decimalAmount(123456) // '1234.56'
 */
export function decimalAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) {
    throw new Error(`an amount must be a whole, non-negative number of cents, not ${cents}`)
  }
  const digits = String(cents).padStart(3, '0')
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`
}
