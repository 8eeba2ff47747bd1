import { formatPhone } from '../../src/phone.ts'
import { AREA_CODES, COMMON_LAST_NAMES, EMAIL_DOMAINS, FIRST_NAMES, RARE_NAME_PARTS } from './names.ts'

/**
 * Deterministic claimants: everything about person `k` comes from hashing k, so a benchmark can
 * rebuild any seeded row (to search for it or look it up) without reading the database.
 */
export interface Claimant {
  firstName: string
  lastName: string
  email: string
  /** Formatted as the product stores it: '(415) 823-4711'. */
  phoneNumber: string
}

// phones: the 8,000,000 (exchange 200-999, line 0000-9999) pairs are a bijection of k, so no two
// claimants share a phone whatever their area code
export const MAX_CLAIMANTS = 8_000_000
const PHONE_STEP = 2_718_281 // odd and not a multiple of 5: coprime with 8,000,000
const PHONE_OFFSET = 1_234_567

/** A uniform number in [0, 1) from (k, salt); the same inputs always give the same number. */
export function unit(k: number, salt: number): number {
  let x = (k + Math.imul(salt, 0x9e3779b9)) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x27d4eb2f) >>> 0
  return ((x ^ (x >>> 15)) >>> 0) / 2 ** 32
}

/** A Zipf-like pick: early entries of the list come up far more often than late ones. */
function pickSkewed<T>(list: readonly T[], u: number, skew = 1.3): T {
  return list[Math.min(list.length - 1, Math.floor(list.length * u ** skew))]!
}

function pick<T>(list: readonly T[], u: number): T {
  return list[Math.floor(list.length * u)]!
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

export function phoneFor(k: number, areaCode: string): string {
  if (k >= MAX_CLAIMANTS) throw new Error(`claimant ${k} is past the ${MAX_CLAIMANTS} unique phones`)
  const n = (k * PHONE_STEP + PHONE_OFFSET) % MAX_CLAIMANTS
  const exchange = 200 + Math.floor(n / 10_000)
  const line = String(n % 10_000).padStart(4, '0')
  return formatPhone(`${areaCode}${exchange}${line}`)
}

export function claimantFor(k: number): Claimant {
  const firstName = pickSkewed(FIRST_NAMES, unit(k, 1))
  // most people carry a common surname; the rest one of a long tail of rarer ones
  const lastName =
    unit(k, 2) < 0.65
      ? pickSkewed(COMMON_LAST_NAMES, unit(k, 3))
      : capitalise(
          pick(RARE_NAME_PARTS.starts, unit(k, 4)) + pick(RARE_NAME_PARTS.ends, unit(k, 5)).toLowerCase(),
        )
  const first = firstName.toLowerCase()
  const last = lastName.toLowerCase()
  const digits = Math.floor(unit(k, 6) * 10_000)
  const year = 60 + Math.floor(unit(k, 7) * 45)
  const style = Math.floor(unit(k, 8) * 6)
  const local = [
    `${first}.${last}`,
    `${first}.${last}${digits}`,
    `${first[0]}${last}${digits}`,
    `${first}${last}${year % 100}`,
    `${first}_${last[0]}${digits}`,
    `${last}.${first}${year}`,
  ][style]!
  const domain = pickSkewed(EMAIL_DOMAINS, unit(k, 9), 2.2)
  return {
    firstName,
    lastName,
    email: `${local}@${domain}`,
    phoneNumber: phoneFor(k, pick(AREA_CODES, unit(k, 10))),
  }
}

/**
 * When claim i of n was filed: over the last two years, in campaign waves (the rate swings between
 * about 0.3 and 1.7 times the mean), ids rising with time as they do in production.
 */
export function filedAt({
  i,
  n,
  now,
  years = 2,
}: {
  i: number
  n: number
  now: number
  years?: number
}): string {
  const span = years * 365 * 24 * 60 * 60 * 1000
  const u = n <= 1 ? 1 : i / (n - 1)
  const waves = 9
  const curved = u - (0.7 * Math.sin(2 * Math.PI * waves * u)) / (2 * Math.PI * waves)
  const jitter = (unit(i, 11) - 0.5) * 20 * 60 * 1000
  return new Date(Math.min(now, now - span + curved * span + jitter)).toISOString()
}

/** Cash advances taken (1-100, most people a handful) and months of membership (1-36). */
export function claimCounts(k: number): { cashAdvanceCount: number; membershipMonths: number } {
  return {
    cashAdvanceCount: Math.min(100, 1 + Math.floor(-Math.log(1 - unit(k, 12)) * 9)),
    membershipMonths: 1 + Math.floor(unit(k, 13) ** 1.4 * 36),
  }
}
