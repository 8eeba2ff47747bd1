import { csvRecord, UTF8_BOM } from '../../platform/csv.ts'
import { isCalendarDate } from './calendar-date.ts'
import { decimalAmount } from './decimal-amount.ts'
import { maskNumber } from './mask-number.ts'

/** One paper check to print and mail. */
export interface CheckPayment {
  /** Ours (the payout item's id): what the register row is matched back by. */
  reference: string
  payee: string
  amountCents: number
  address: { street: string; addressLine2?: string; city: string; state: string; zip: string }
}

export interface IssuedCheck extends CheckPayment {
  checkNumber: number
}

export interface CheckRegister {
  checks: IssuedCheck[]
  /** For the people who print and mail the checks: UTF-8 with a byte-order mark, for Excel. */
  registerCsv: string
  /** For the firm's bank, which pays only checks it lists: plain UTF-8, no byte-order mark. */
  positivePayCsv: string
  count: number
  totalCents: number
}

export const CHECK_REGISTER_HEADER = [
  'Check Number',
  'Date',
  'Payee',
  'Amount',
  'Street',
  'Address Line 2',
  'City',
  'State',
  'ZIP',
  'Reference',
] as const
export const POSITIVE_PAY_HEADER = [
  'Account Number',
  'Check Number',
  'Issue Date',
  'Amount',
  'Payee',
] as const

const ACCOUNT_NUMBER = /^\d{4,17}$/

/**
 * Numbers the checks in order from `firstCheckNumber` and writes the printable register and the
 * positive-pay file for them, both dated `issueDate` (YYYY-MM-DD). Every problem in the payments is
 * reported at once, each naming its reference, never the firm's account number beyond its last four.
 */
export function buildCheckRegister({
  payments,
  firstCheckNumber,
  issueDate,
  accountNumber,
}: {
  payments: readonly CheckPayment[]
  firstCheckNumber: number
  issueDate: string
  /** The firm's checking account the checks draw on. */
  accountNumber: string
}): CheckRegister {
  const problems = registerProblems({ payments, firstCheckNumber, issueDate, accountNumber })
  if (problems.length) throw new Error(`the check register cannot be made: ${problems.join('; ')}`)
  const checks = payments.map((payment, index) => ({ ...payment, checkNumber: firstCheckNumber + index }))
  const registerCsv =
    UTF8_BOM +
    csvRecord(CHECK_REGISTER_HEADER) +
    checks
      .map((check) =>
        csvRecord([
          check.checkNumber,
          issueDate,
          check.payee,
          decimalAmount(check.amountCents),
          check.address.street,
          check.address.addressLine2 ?? '',
          check.address.city,
          check.address.state,
          check.address.zip,
          check.reference,
        ]),
      )
      .join('')
  const positivePayCsv =
    csvRecord(POSITIVE_PAY_HEADER) +
    checks
      .map((check) =>
        csvRecord([
          accountNumber,
          check.checkNumber,
          issueDate,
          decimalAmount(check.amountCents),
          check.payee,
        ]),
      )
      .join('')
  return {
    checks,
    registerCsv,
    positivePayCsv,
    count: checks.length,
    totalCents: checks.reduce((sum, check) => sum + check.amountCents, 0),
  }
}

function registerProblems({
  payments,
  firstCheckNumber,
  issueDate,
  accountNumber,
}: {
  payments: readonly CheckPayment[]
  firstCheckNumber: number
  issueDate: string
  accountNumber: string
}): string[] {
  const problems: string[] = []
  if (payments.length === 0) problems.push('there are no checks')
  if (!Number.isSafeInteger(firstCheckNumber) || firstCheckNumber < 1)
    problems.push('the first check number must be a whole number from 1')
  else if (!Number.isSafeInteger(firstCheckNumber + payments.length))
    problems.push('the check numbers run past the largest number')
  if (!isCalendarDate(issueDate)) problems.push(`the issue date "${issueDate}" must be a date as YYYY-MM-DD`)
  if (!ACCOUNT_NUMBER.test(accountNumber))
    problems.push(`the account number ${maskNumber(accountNumber)} must be 4 to 17 digits`)
  const seen = new Set<string>()
  payments.forEach((payment, index) => {
    const name = payment.reference ? `check for "${payment.reference}"` : `check ${index + 1}`
    if (!payment.reference) problems.push(`${name}: the reference is empty`)
    else if (seen.has(payment.reference)) problems.push(`${name}: the reference appears twice`)
    seen.add(payment.reference)
    if (!payment.payee.trim()) problems.push(`${name}: the payee is empty`)
    if (!Number.isSafeInteger(payment.amountCents) || payment.amountCents <= 0)
      problems.push(`${name}: the amount must be a whole number of cents above 0`)
    const { street, city, state, zip } = payment.address
    if (![street, city, state, zip].every((part) => part.trim()))
      problems.push(`${name}: the address needs a street, city, state and ZIP`)
  })
  return problems
}
