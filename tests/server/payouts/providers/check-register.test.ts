import { describe, expect, it } from 'vitest'
import { buildCheckRegister, type CheckPayment } from '../../../../server/payouts/providers/check-register.ts'
import { maskNumber } from '../../../../server/payouts/providers/mask-number.ts'

const ACCOUNT = '000123456789'

function makePayment(index: number, overrides: Partial<CheckPayment> = {}): CheckPayment {
  return {
    reference: `claim-${index}`,
    payee: `Claimant ${index}`,
    amountCents: 10_000 * index + 1,
    address: { street: `${index} Main St`, city: 'Honolulu', state: 'HI', zip: '96813' },
    ...overrides,
  }
}

function build(
  payments: CheckPayment[],
  overrides: { firstCheckNumber?: number; accountNumber?: string } = {},
) {
  return buildCheckRegister({
    payments,
    firstCheckNumber: overrides.firstCheckNumber ?? 1001,
    issueDate: '2026-03-15',
    accountNumber: overrides.accountNumber ?? ACCOUNT,
  })
}

describe('buildCheckRegister', () => {
  it('numbers the checks in order from the first check number given', () => {
    const register = build([makePayment(1), makePayment(2), makePayment(3)], { firstCheckNumber: 5001 })
    expect(register.checks.map((check) => [check.reference, check.checkNumber])).toEqual([
      ['claim-1', 5001],
      ['claim-2', 5002],
      ['claim-3', 5003],
    ])
    expect(register.count).toBe(3)
    expect(register.totalCents).toBe(60_003)
  })

  it('writes a printable register with the check number, date, payee, amount and address of each check', () => {
    const register = build([
      makePayment(1, { payee: 'José Núñez', amountCents: 123_456 }),
      makePayment(2, {
        payee: 'Smith, "Jo"',
        amountCents: 5,
        address: { street: '9 Elm', addressLine2: 'Apt 4', city: 'Hilo', state: 'HI', zip: '96720-1234' },
      }),
    ])
    expect(register.registerCsv).toBe(
      '\ufeffCheck Number,Date,Payee,Amount,Street,Address Line 2,City,State,ZIP,Reference\r\n' +
        '1001,2026-03-15,José Núñez,1234.56,1 Main St,,Honolulu,HI,96813,claim-1\r\n' +
        '1002,2026-03-15,"Smith, ""Jo""",0.05,9 Elm,Apt 4,Hilo,HI,96720-1234,claim-2\r\n',
    )
  })

  it("writes the positive-pay file with the firm's account, each check's number, date, amount and payee", () => {
    const register = build([makePayment(1, { amountCents: 250_000 }), makePayment(2, { amountCents: 99 })])
    expect(register.positivePayCsv).toBe(
      'Account Number,Check Number,Issue Date,Amount,Payee\r\n' +
        '000123456789,1001,2026-03-15,2500.00,Claimant 1\r\n' +
        '000123456789,1002,2026-03-15,0.99,Claimant 2\r\n',
    )
  })

  it('neutralises a payee a spreadsheet would run as a formula', () => {
    const register = build([makePayment(1, { payee: '=HYPERLINK("http://x")' })])
    expect(register.registerCsv.split('\r\n')[1]).toContain(`"'=HYPERLINK(""http://x"")"`)
  })

  it('lists every problem at once, naming each check by its reference and the account by its last four', () => {
    const payments = [
      makePayment(1, { amountCents: 0 }),
      makePayment(2, { payee: ' ' }),
      makePayment(3, { address: { street: '', city: 'Hilo', state: 'HI', zip: '96720' } }),
      makePayment(4, { amountCents: 10.5, reference: 'claim-1' }),
    ]
    let message = ''
    try {
      build(payments, { accountNumber: '12-3456789', firstCheckNumber: 0 })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe(
      'the check register cannot be made: the first check number must be a whole number from 1; ' +
        'the account number *****6789 must be 4 to 17 digits; ' +
        'check for "claim-1": the amount must be a whole number of cents above 0; ' +
        'check for "claim-2": the payee is empty; ' +
        'check for "claim-3": the address needs a street, city, state and ZIP; ' +
        'check for "claim-1": the reference appears twice; ' +
        'check for "claim-1": the amount must be a whole number of cents above 0',
    )
    expect(message).not.toContain('123456789')
  })

  it('refuses an issue date that is not a day of the calendar as YYYY-MM-DD', () => {
    expect(() =>
      buildCheckRegister({
        payments: [makePayment(1)],
        firstCheckNumber: 1,
        issueDate: '2026-02-30',
        accountNumber: ACCOUNT,
      }),
    ).toThrow('the issue date "2026-02-30" must be a date as YYYY-MM-DD')
    expect(() =>
      buildCheckRegister({
        payments: [makePayment(1)],
        firstCheckNumber: 1,
        issueDate: '03/15/2026',
        accountNumber: ACCOUNT,
      }),
    ).toThrow('the issue date "03/15/2026" must be a date as YYYY-MM-DD')
  })
})

describe('maskNumber', () => {
  it('shows the last four digits only, and nothing of a number of four digits or fewer', () => {
    expect([maskNumber('021000021'), maskNumber('123-45-6789'), maskNumber('1234'), maskNumber('')]).toEqual([
      '*****0021',
      '*****6789',
      '****',
      '****',
    ])
  })
})
