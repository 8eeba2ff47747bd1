import { EMAIL_SHAPE } from './lookup-messages.ts'
import { isPossibleUsPhone, phoneDigits } from './phone.ts'
import { translator, type Translator } from './translate.ts'

/** How a claimant can be paid: a PayPal or Venmo wallet, an ACH transfer to their bank, or a paper check. */
export const PAYOUT_METHODS = ['paypal', 'venmo', 'ach', 'check'] as const
export type PayoutMethod = (typeof PAYOUT_METHODS)[number]

/** The claimant's choice as their form sends it; what each method needs is checked by checkPayoutChoice. */
export interface PayoutChoice {
  method: PayoutMethod
  /** PayPal or Venmo: the wallet's e-mail address, or else its phone. */
  email?: string
  phone?: string
  /** ACH: the bank's routing number, the account number and its type. */
  routingNumber?: string
  accountNumber?: string
  accountType?: 'checking' | 'savings'
}

/** The W-9's fields: who is paid, their taxpayer number, the address a check or a 1099 goes to. */
export interface W9Details {
  /** The name on the claimant's income tax return. */
  legalName: string
  tinType: 'ssn' | 'ein'
  tin: string
  addressLine1: string
  addressLine2?: string
  city: string
  /** Two letters: a state, DC, a territory or a military post (AA, AE, AP). */
  state: string
  zip: string
  /** The W-9's certification, signed under penalties of perjury. */
  isCertified: boolean
}

/** Messages by field, in the reader's language: `{ routingNumber: ['…'] }`; empty when all is well. */
export type PayoutFieldErrors = Record<string, string[]>

/** Texts the claimant reads; the Spanish ones are in forms/es/ui/payouts.json. */
export const PAYOUT_METHOD_MESSAGE = 'Please choose how you want to be paid.'
export const WALLET_CONTACT_MESSAGE =
  'Please enter the e-mail address or the phone number of your {wallet} account.'
export const WALLET_CONTACT_BOTH_MESSAGE =
  'Please enter either an e-mail address or a phone number, not both.'
export const EMAIL_INVALID_MESSAGE = 'Please enter a valid e-mail address, like name@example.com.'
export const PHONE_INVALID_MESSAGE = 'Please enter a 10-digit US phone number.'
export const ROUTING_NUMBER_FORMAT_MESSAGE = "Please enter your bank's 9-digit routing number."
export const ROUTING_NUMBER_INVALID_MESSAGE =
  'This is not a valid routing number. Please copy it again from a check or from your bank.'
export const ACCOUNT_NUMBER_FORMAT_MESSAGE = 'Please enter your account number: 4 to 17 digits.'
export const ACCOUNT_TYPE_MESSAGE = 'Please choose checking or savings.'
export const LEGAL_NAME_MESSAGE = 'Please enter your name as shown on your income tax return.'
export const LEGAL_NAME_TOO_LONG_MESSAGE = 'Please shorten the name to {max} characters.'
export const TIN_TYPE_MESSAGE = 'Please choose Social Security number or Employer Identification Number.'
export const SSN_FORMAT_MESSAGE = 'Please enter your Social Security number as ###-##-####.'
export const SSN_INVALID_MESSAGE = 'This is not a valid Social Security number. Please check it.'
export const EIN_FORMAT_MESSAGE = 'Please enter your Employer Identification Number as ##-#######.'
export const EIN_INVALID_MESSAGE = 'This is not a valid Employer Identification Number. Please check it.'
export const ADDRESS_MESSAGE = 'Please enter your street address.'
export const ADDRESS_TOO_LONG_MESSAGE = 'Please shorten this line to {max} characters.'
export const CITY_MESSAGE = 'Please enter your city.'
export const STATE_MESSAGE = 'Please choose your state.'
export const ZIP_MESSAGE = 'Please enter your 5-digit ZIP code, or ZIP+4.'
export const CERTIFICATION_MESSAGE = 'Please confirm the certification to go on.'

const MAX_NAME_LENGTH = 100
const MAX_LINE_LENGTH = 100
const MAX_EMAIL_LENGTH = 254
const WALLET_NAMES: Record<string, string> = { paypal: 'PayPal', venmo: 'Venmo' }
const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK ' +
    'OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR GU VI AS MP AA AE AP'
  ).split(' '),
)

/**
 * What the chosen way of payment is missing or has wrong, by field, in the reader's language.
 * @example checkPayoutChoice({ method: 'ach', routingNumber: '123456789', accountNumber: '12', accountType: 'checking' })
 *   // { routingNumber: ['This is not a valid routing number. …'], accountNumber: ['Please enter your account number: 4 to 17 digits.'] }
 */
export function checkPayoutChoice(
  choice: Partial<Record<keyof PayoutChoice, unknown>>,
  t: Translator = translator(undefined),
): PayoutFieldErrors {
  const errors: PayoutFieldErrors = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const { method } = choice
  if (method === 'paypal' || method === 'venmo') {
    const email = text(choice.email)
    const phone = text(choice.phone)
    if (email === '' && phone === '')
      add('email', t(WALLET_CONTACT_MESSAGE, { wallet: WALLET_NAMES[method]! }))
    else if (email !== '' && phone !== '') add('phone', t(WALLET_CONTACT_BOTH_MESSAGE))
    else if (email !== '' && !(email.length <= MAX_EMAIL_LENGTH && EMAIL_SHAPE.test(email)))
      add('email', t(EMAIL_INVALID_MESSAGE))
    else if (phone !== '' && !isPossibleUsPhone(phoneDigits(phone))) add('phone', t(PHONE_INVALID_MESSAGE))
  } else if (method === 'ach') {
    const routing = text(choice.routingNumber).replace(/\s/g, '')
    if (!/^\d{9}$/.test(routing)) add('routingNumber', t(ROUTING_NUMBER_FORMAT_MESSAGE))
    else if (!isValidRoutingNumber(routing)) add('routingNumber', t(ROUTING_NUMBER_INVALID_MESSAGE))
    if (!/^\d{4,17}$/.test(text(choice.accountNumber).replace(/\s/g, '')))
      add('accountNumber', t(ACCOUNT_NUMBER_FORMAT_MESSAGE))
    if (choice.accountType !== 'checking' && choice.accountType !== 'savings')
      add('accountType', t(ACCOUNT_TYPE_MESSAGE))
  } else if (method !== 'check') {
    add('method', t(PAYOUT_METHOD_MESSAGE))
  }
  return errors
}

/**
 * What the W-9 is missing or has wrong, by field, in the reader's language.
 * @example checkW9({ ...w9, tinType: 'ssn', tin: '666-12-3456' }).tin // ['This is not a valid Social Security number. Please check it.']
 */
export function checkW9(
  w9: Partial<Record<keyof W9Details, unknown>>,
  t: Translator = translator(undefined),
): PayoutFieldErrors {
  const errors: PayoutFieldErrors = {}
  const add = (field: string, message: string) => (errors[field] ??= []).push(message)
  const legalName = text(w9.legalName)
  if (!/\p{L}/u.test(legalName)) add('legalName', t(LEGAL_NAME_MESSAGE))
  else if (legalName.length > MAX_NAME_LENGTH)
    add('legalName', t(LEGAL_NAME_TOO_LONG_MESSAGE, { max: MAX_NAME_LENGTH }))
  const tin = text(w9.tin)
  if (w9.tinType === 'ssn') {
    if (!plainTin('ssn', tin)) add('tin', t(SSN_FORMAT_MESSAGE))
    else if (!isValidSsn(tin)) add('tin', t(SSN_INVALID_MESSAGE))
  } else if (w9.tinType === 'ein') {
    if (!plainTin('ein', tin)) add('tin', t(EIN_FORMAT_MESSAGE))
    else if (!isValidEin(tin)) add('tin', t(EIN_INVALID_MESSAGE))
  } else add('tinType', t(TIN_TYPE_MESSAGE))
  for (const field of ['addressLine1', 'addressLine2'] as const) {
    const line = text(w9[field])
    if (field === 'addressLine1' && line === '') add(field, t(ADDRESS_MESSAGE))
    else if (line.length > MAX_LINE_LENGTH) add(field, t(ADDRESS_TOO_LONG_MESSAGE, { max: MAX_LINE_LENGTH }))
  }
  const city = text(w9.city)
  if (city === '') add('city', t(CITY_MESSAGE))
  else if (city.length > MAX_LINE_LENGTH) add('city', t(ADDRESS_TOO_LONG_MESSAGE, { max: MAX_LINE_LENGTH }))
  if (!US_STATES.has(text(w9.state).toUpperCase())) add('state', t(STATE_MESSAGE))
  if (!/^\d{5}(?:-?\d{4})?$/.test(text(w9.zip))) add('zip', t(ZIP_MESSAGE))
  if (w9.isCertified !== true) add('isCertified', t(CERTIFICATION_MESSAGE))
  return errors
}

/**
 * Whether nine digits can be an ABA routing number: the first two in a Federal Reserve range (00-12
 * banks, 21-32 thrifts, 61-72 electronic, 80 traveller's checks) and the 3-7-1 check digit right.
 * @example isValidRoutingNumber('021000021') // true; isValidRoutingNumber('021000022') // false
 */
export function isValidRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value) || value === '000000000') return false
  const prefix = Number(value.slice(0, 2))
  const isFedRange =
    prefix <= 12 || (prefix >= 21 && prefix <= 32) || (prefix >= 61 && prefix <= 72) || prefix === 80
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1]
  const sum = [...value].reduce((acc, digit, index) => acc + Number(digit) * weights[index]!, 0)
  return isFedRange && sum % 10 === 0
}

/**
 * A TIN written as the W-9 asks (SSN ###-##-####, EIN ##-#######) or as nine bare digits, in the
 * written form; undefined for anything else.
 * @example plainTin('ssn', '123456789') // '123-45-6789'; plainTin('ein', '1-23456789') // undefined
 */
export function plainTin(tinType: 'ssn' | 'ein', value: string): string | undefined {
  const written = value.trim()
  const asOnW9 = tinType === 'ssn' ? /^\d{3}-\d{2}-\d{4}$/ : /^\d{2}-\d{7}$/
  if (!asOnW9.test(written) && !/^\d{9}$/.test(written)) return undefined
  const digits = written.replaceAll('-', '')
  return tinType === 'ssn'
    ? `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`
    : `${digits.slice(0, 2)}-${digits.slice(2)}`
}

/**
 * Whether an SSN can have been issued: area not 000, 666 or 900-999, group not 00, serial not 0000.
 * @example isValidSsn('123-45-6789') // true; isValidSsn('900-12-3456') // false
 */
export function isValidSsn(value: string): boolean {
  const plain = plainTin('ssn', value)
  if (!plain) return false
  const [area = '', group = '', serial = ''] = plain.split('-')
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000'
}

/** The prefixes the IRS has never given an EIN (its list of valid prefixes leaves them out). */
const UNUSED_EIN_PREFIXES = new Set([
  '00',
  '07',
  '08',
  '09',
  '17',
  '18',
  '19',
  '28',
  '29',
  '49',
  '69',
  '70',
  '78',
  '79',
  '89',
  '96',
  '97',
])

/**
 * Whether an EIN starts with a prefix the IRS assigns.
 * @example isValidEin('12-3456789') // true; isValidEin('07-1234567') // false
 */
export function isValidEin(value: string): boolean {
  const plain = plainTin('ein', value)
  return plain !== undefined && !UNUSED_EIN_PREFIXES.has(plain.slice(0, 2))
}

/**
 * A taxpayer or bank number as staff and statements show it: its last four letters or digits after
 * "••••", and never more than half of them, so a short number is not shown whole.
 * @example mask('123-45-6789') // '••••6789'; mask('1234') // '••••34'
 */
export function mask(value: string): string {
  const characters = value.replace(/[^\p{L}\p{N}]/gu, '')
  if (characters === '') return ''
  const shown = Math.min(4, Math.floor(characters.length / 2))
  return `••••${shown > 0 ? characters.slice(-shown) : ''}`
}

/**
 * An e-mail address with its name hidden but its first letter and its domain, so the claimant can tell
 * which of their addresses it is.
 * @example maskEmail('ana.lopez@example.com') // 'a••••@example.com'
 */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@')
  if (at < 1) return mask(value)
  return `${value.slice(0, 1)}••••${value.slice(at)}`
}

/**
 * A person's name with each word cut to its first letter, as a report others may read shows a payee:
 * enough to match a check on the claim, not to name the person.
 * @example maskName('Rosa  María Mendez') // 'R•••• M•••• M••••'
 */
export function maskName(value: string): string {
  return value
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '')
    .map((word) => `${[...word][0]}••••`)
    .join(' ')
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}
