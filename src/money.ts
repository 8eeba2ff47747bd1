import { AppError } from './app-error.ts'
import type { Locale } from './translate.ts'

/**
 * The largest amount anything in a payout may be: $1,000,000,000.00. A settlement of a whole campaign
 * stays far below it, and a typo with three extra zeros in a claim's award stops here. Kept small enough
 * that a cents amount times a percent in basis points is still an exact JavaScript integer.
 */
export const MAX_CENTS = 100_000_000_000

/** What a typed or imported amount may look like: $1,234.56, 1234.5, $12, .50 (commas in threes only). */
const DOLLARS = /^\$?(?:(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?|\.(\d+))$/
const EXAMPLE = 'write it like 1,234.56 or $12'

/**
 * An amount staff typed or a provider's CSV holds, in integer cents, read digit by digit (never through
 * a float). Throws a 422 AppError naming `what` for an empty, negative, unreadable or too large amount,
 * or one with more than two decimals.
 * @example parseCents('$1,234.56') // 123456; parseCents('12.5') // 1250
 */
export function parseCents(text: string, what = 'amount'): number {
  const written = text.trim()
  if (written === '') throw unreadable(`${what} is empty; ${EXAMPLE}`)
  if (/^\(.*\)$|^-|^\$-|-$/.test(written)) {
    throw unreadable(`${what} "${written}" is negative; an amount here is never below 0`)
  }
  const match = DOLLARS.exec(written)
  if (!match) throw unreadable(`${what} "${written}" is not a dollar amount; ${EXAMPLE}`)
  const [, whole = '0', decimals = match[3] ?? ''] = match
  if (decimals.length > 2) {
    throw unreadable(`${what} "${written}" has more than two decimals; round it to whole cents`)
  }
  if (match[2] === '') throw unreadable(`${what} "${written}" ends in a point; ${EXAMPLE}`)
  const digits = `${whole.replaceAll(',', '')}${decimals.padEnd(2, '0')}`.replace(/^0+(?=\d)/, '')
  if (digits.length > String(MAX_CENTS).length || Number(digits) > MAX_CENTS) {
    throw unreadable(`${what} "${written}" is over the ${formatCents(MAX_CENTS)} limit; check the amount`)
  }
  return Number(digits)
}

function unreadable(message: string): AppError {
  return new AppError('VALIDATION_FAILED', { status: 422, message })
}

// made once: a formatter is costly to build, and a batch formats thousands of amounts
const DOLLAR_FORMATS: Record<Locale, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }),
  es: new Intl.NumberFormat('es-US', { style: 'currency', currency: 'USD' }),
}

/**
 * Integer cents as a US dollar amount in the reader's language (US English and US Spanish both write
 * "$1,234.56"). The formatter is given the decimal as a string, which it reads exactly, so no float
 * ever holds the amount. Throws for anything but a safe integer.
 * @example formatCents(123456) // '$1,234.56'; formatCents(-5, 'es') // '-$0.05'
 */
export function formatCents(cents: number, locale: Locale = 'en'): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`${cents} is not a whole number of cents`)
  const digits = String(Math.abs(cents)).padStart(3, '0')
  const decimal = `${cents < 0 ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}` as `${number}`
  return DOLLAR_FORMATS[locale].format(decimal)
}

/**
 * Whether a value is a whole, non-negative number of cents no larger than MAX_CENTS.
 * @example isCents(1999) // true; isCents(19.99) // false
 */
export function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_CENTS
}
