import { achName } from './ach-name.ts'
import { isCalendarDate } from './calendar-date.ts'
import { maskNumber } from './mask-number.ts'
import { isRoutingNumber } from './routing-number.ts'

/** The firm as the originator of the file, as its bank set it up for ACH. */
export interface NachaOriginator {
  /** The routing number of the firm's bank, which the file is sent to. */
  immediateDestination: string
  immediateDestinationName: string
  /** The origin the bank assigned: 9 or 10 digits, often "1" and the firm's EIN. */
  immediateOrigin: string
  immediateOriginName: string
  companyName: string
  /** The 10-digit company id the bank assigned, often "1" and the firm's EIN. */
  companyIdentification: string
  /** The routing number of the bank that originates the entries; its first 8 digits start every trace number. */
  originatingDfi: string
}

/** One claimant's share, paid into their bank account. */
export interface NachaCredit {
  /** Ours (the payout item's id), up to 15 letters, digits or hyphens: the entry's individual id number. */
  reference: string
  name: string
  routingNumber: string
  accountNumber: string
  accountType: 'checking' | 'savings'
  amountCents: number
}

/**
 * The amount field holds 10 digits of cents, but nach2 measures the dollars it is given ("9999999.99")
 * against those 10 characters: $9,999,999.99 is the most one entry can carry.
 */
export const MAX_ACH_AMOUNT_CENTS = 999_999_999
// the file control counts entries in 8 digits
const MAX_ENTRIES = 99_999_999
const REFERENCE = /^[A-Za-z0-9-]{1,15}$/

/**
 * Every problem in a file's settings and credits, each credit named by its reference and every bank or
 * taxpayer number by its last four digits: the routing numbers' ABA checksums, the account numbers,
 * amounts and names.
 */
export function nachaProblems({
  originator,
  credits,
  entryDescription,
  effectiveDate,
  fileIdModifier,
  referenceCode,
}: {
  originator: NachaOriginator
  credits: readonly NachaCredit[]
  entryDescription: string
  effectiveDate: string
  fileIdModifier: string
  referenceCode: string
}): string[] {
  const problems: string[] = []
  const { immediateDestination, immediateOrigin, companyIdentification, originatingDfi } = originator
  if (!isRoutingNumber(immediateDestination))
    problems.push(
      `the immediate destination ${maskNumber(immediateDestination)} is not a valid routing number`,
    )
  if (!isRoutingNumber(originatingDfi))
    problems.push(`the originating DFI ${maskNumber(originatingDfi)} is not a valid routing number`)
  if (!/^\d{9,10}$/.test(immediateOrigin))
    problems.push(`the immediate origin ${maskNumber(immediateOrigin)} must be 9 or 10 digits`)
  if (!/^\d{10}$/.test(companyIdentification))
    problems.push(`the company identification ${maskNumber(companyIdentification)} must be 10 digits`)
  for (const [field, value] of [
    ['immediate destination name', originator.immediateDestinationName],
    ['immediate origin name', originator.immediateOriginName],
    ['company name', originator.companyName],
    ['entry description', entryDescription],
    ['reference code', referenceCode],
  ] as const) {
    if (!achName(value)) problems.push(`the ${field} has no character an ACH file can carry`)
  }
  if (!isCalendarDate(effectiveDate))
    problems.push(`the effective date "${effectiveDate}" must be a date as YYYY-MM-DD`)
  if (!/^[A-Za-z0-9]$/.test(fileIdModifier)) problems.push('the file id modifier must be one letter or digit')
  return [...problems, ...creditProblems(credits)]
}

function creditProblems(credits: readonly NachaCredit[]): string[] {
  const problems: string[] = []
  if (credits.length === 0) problems.push('there are no entries')
  if (credits.length > MAX_ENTRIES) problems.push(`a file holds at most ${MAX_ENTRIES} entries`)
  const seen = new Set<string>()
  credits.forEach((credit, index) => {
    const name = REFERENCE.test(credit.reference) ? `entry "${credit.reference}"` : `entry ${index + 1}`
    if (!REFERENCE.test(credit.reference))
      problems.push(`${name}: the reference must be 1 to 15 letters, digits or hyphens`)
    else if (seen.has(credit.reference)) problems.push(`${name}: the reference appears twice`)
    seen.add(credit.reference)
    if (!isRoutingNumber(credit.routingNumber))
      problems.push(`${name}: the routing number ${maskNumber(credit.routingNumber)} fails the ABA checksum`)
    if (!/^\d{4,17}$/.test(achAccountNumber(credit.accountNumber)))
      problems.push(`${name}: the account number ${maskNumber(credit.accountNumber)} must be 4 to 17 digits`)
    if (credit.accountType !== 'checking' && credit.accountType !== 'savings')
      problems.push(`${name}: the account type must be checking or savings`)
    if (
      !Number.isSafeInteger(credit.amountCents) ||
      credit.amountCents <= 0 ||
      credit.amountCents > MAX_ACH_AMOUNT_CENTS
    )
      problems.push(`${name}: the amount must be a whole number of cents from 1 to ${MAX_ACH_AMOUNT_CENTS}`)
    if (!achName(credit.name)) problems.push(`${name}: the name has no character an ACH file can carry`)
  })
  return problems
}

/** The account number as an entry holds it: the spaces and hyphens people type left out. */
export function achAccountNumber(accountNumber: string): string {
  return accountNumber.replace(/[\s-]/g, '')
}
