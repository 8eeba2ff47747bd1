import type { FormSignals } from '../../src/form-signals.ts'
import { phoneFor } from '../../scripts/seed/claimants.ts'
import {
  AREA_CODES,
  CITIES,
  COMMON_LAST_NAMES,
  EMAIL_DOMAINS,
  FIRST_NAMES,
  RARE_NAME_PARTS,
  STREET_NAMES,
  US_STATES,
} from '../../scripts/seed/names.ts'
import type { Networks } from './networks.ts'
import type { Random } from './random.ts'
import type { ScreenshotPools } from './screenshots.ts'

/** The planted rings' kinds, each reported on its own. */
export const RING_KINDS = [
  'one-device',
  'one-address',
  'email-variants',
  'near-duplicate-names',
  'bot-speed',
  'edited-screenshots',
] as const
export type RingKind = (typeof RING_KINDS)[number]

/** Who really filed a claim: a genuine claimant (by number), or a planted ring's member. */
export type Truth = { genuine: true; person: number } | { genuine: false; kind: RingKind; ring: number }

/** A main-form intake as the bench writes it (form_submissions). */
export interface PlannedIntake {
  at: number
  firstName: string
  lastName: string
  email: string
  phone: string
  street: string
  line2: string
  city: string
  state: string
  zip: string
  ip: string
  signals: FormSignals | undefined
  /** Set once the rows are written. */
  id?: number
}

/** A Step 2 claim as the bench writes it (claims, its agreement record for the client address). */
export interface PlannedClaim {
  at: number
  app: string
  firstName: string
  lastName: string
  email: string
  phone: string
  ip: string
  signals: FormSignals | undefined
  /** Its screenshot's key in the disk store (bench/fraud/screenshots.ts). */
  screenshot: string
  intake: PlannedIntake | undefined
  truth: Truth
}

/** The Step 2 form's answers a claimant types (or pastes) when nothing is pre-filled. */
export const STEP2_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phoneNumber',
  'cashAdvanceCount',
  'membershipMonths',
]
/** What is left to type on a Step 2 form opened from the main form's link (the rest pre-filled). */
export const PREFILLED_STEP2_FIELDS = ['cashAdvanceCount', 'membershipMonths']
export const MAIN_FORM_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'address', 'city', 'zipCode']

export const HOUR = 3_600_000
export const DAY = 24 * HOUR

/** A person's name: a first name and a common surname (most) or a rarer one. */
export function drawName(random: Random): { firstName: string; lastName: string } {
  const firstName = random.pickSkewed(FIRST_NAMES)
  const lastName = random.chance(0.65)
    ? random.pickSkewed(COMMON_LAST_NAMES)
    : capitalise(random.pick(RARE_NAME_PARTS.starts) + random.pick(RARE_NAME_PARTS.ends).toLowerCase())
  return { firstName, lastName }
}

export function drawLastName(random: Random): string {
  return drawName(random).lastName
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

/** An e-mail as people make them from their name, at a common provider (Gmail first). */
export function drawEmail(random: Random, name: { firstName: string; lastName: string }): string {
  const first = name.firstName.toLowerCase().replace(/[^a-z]/g, '')
  const last = name.lastName.toLowerCase().replace(/[^a-z]/g, '')
  const digits = random.int(1, 9999)
  const year = random.int(60, 104) % 100
  const local = random.pick([
    `${first}.${last}`,
    `${first}.${last}${digits}`,
    `${first[0]}${last}${digits}`,
    `${first}${last}${year}`,
    `${first}_${last[0]}${digits}`,
    `${last}.${first}${year}`,
  ])
  return `${local}@${random.pickSkewed(EMAIL_DOMAINS, 2.2)}`
}

/** A phone of its own for each number n (the seed's bijection), in a random area code. */
export function phoneOf(random: Random, n: number): string {
  return phoneFor(n, random.pick(AREA_CODES))
}

/** A home address (its street line and ZIP code) in a city. */
export interface Home {
  number: number
  street: string
  city: string
  state: string
  zip: string
  /** The flat, for an apartment; '' for a house. */
  unit: string
}

export function drawHome(random: Random): Home {
  return {
    number: random.int(100, 9899),
    street: random.pick(STREET_NAMES),
    city: random.pick(CITIES),
    state: random.pick(US_STATES),
    zip: String(random.int(10000, 99999)),
    unit: '',
  }
}

const LONG_STREET_WORDS: Record<string, string> = {
  St: 'Street',
  Ave: 'Avenue',
  Dr: 'Drive',
  Ln: 'Lane',
  Blvd: 'Boulevard',
  Rd: 'Road',
}

/** An address as one person writes it: "Street" or "St", "Apt 4", "#4" or "Unit 4", or the flat left out. */
export function writeHome(
  random: Random,
  home: Home,
  { dropsUnit = 0.03 } = {},
): Pick<PlannedIntake, 'street' | 'line2' | 'city' | 'state' | 'zip'> {
  const [name, type = ''] = home.street.split(/ (?=\S+$)/)
  const written = random.chance(0.5) ? (LONG_STREET_WORDS[type] ?? type) : type
  const street = `${home.number} ${name} ${written}${random.chance(0.1) ? '.' : ''}`
  const unit =
    home.unit === '' || random.chance(dropsUnit)
      ? ''
      : `${random.pick(['Apt ', 'Apt. ', '#', 'Unit '])}${home.unit}`
  // some people put the flat on the street line
  const onStreetLine = unit !== '' && random.chance(0.3)
  return {
    street: onStreetLine ? `${street} ${unit}` : street,
    line2: onStreetLine ? '' : unit,
    city: home.city,
    state: home.state,
    zip: home.zip,
  }
}

/** A browser's id as the site's pages keep it (16 random bytes, 22 URL-safe characters). */
export function drawDevice(random: Random): string {
  return random.token(16)
}

/** An address in a /24: `base` is its first three octets. */
export function ipIn(random: Random, base: string): string {
  return `${base}.${random.int(1, 254)}`
}

/** An IPv6 address in a /64 of its own (a phone on a carrier that hands each phone its own /64). */
export function ownIpv6(random: Random): string {
  const group = () => random.int(0, 0xffff).toString(16)
  return `2600:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}`
}

/** Domains that hand out throw-away addresses (on the mailchecker package's list). */
export const DISPOSABLE_DOMAINS = ['mailinator.com', 'yopmail.com', 'guerrillamail.com', 'sharklasers.com']

/** What the planters draw from. */
export interface PlantContext {
  random: Random
  networks: Networks
  screenshots: ScreenshotPools
  apps: string[]
  /** The campaign's time span (epoch ms). */
  span: { start: number; end: number }
  /** A phone number no one else has. */
  nextPhone: () => string
  /** Mailboxes already taken (a person's mailbox is their own). */
  mailboxes: Set<string>
  /** The fictional phone numbers ring members gave, each once. */
  fictionalPhones: Set<string>
}
