import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatCents, isCents, MAX_CENTS, parseCents } from './money.ts'

describe('parseCents', () => {
  it.each([
    ['1,234.56', 123456],
    ['$1,234.56', 123456],
    ['$12', 1200],
    ['12.5', 1250],
    ['12.05', 1205],
    ['0', 0],
    ['0.00', 0],
    ['.5', 50],
    ['  $7.10 ', 710],
    ['1234567.89', 123456789],
    ['1,000,000', 100000000],
    ['007.00', 700],
    ['1,000,000,000.00', MAX_CENTS],
  ])('reads "%s" as %i cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents)
  })

  it.each([
    ['', 'amount is empty; write it like 1,234.56 or $12'],
    ['   ', 'amount is empty; write it like 1,234.56 or $12'],
    ['-12.00', 'amount "-12.00" is negative; an amount here is never below 0'],
    ['$-12', 'amount "$-12" is negative; an amount here is never below 0'],
    ['(12.00)', 'amount "(12.00)" is negative; an amount here is never below 0'],
    ['12.345', 'amount "12.345" has more than two decimals; round it to whole cents'],
    ['12.', 'amount "12." ends in a point; write it like 1,234.56 or $12'],
    ['12,34', 'amount "12,34" is not a dollar amount; write it like 1,234.56 or $12'],
    ['1,2345', 'amount "1,2345" is not a dollar amount; write it like 1,234.56 or $12'],
    ['1.234,56', 'amount "1.234,56" is not a dollar amount; write it like 1,234.56 or $12'],
    ['12 USD', 'amount "12 USD" is not a dollar amount; write it like 1,234.56 or $12'],
    ['1e3', 'amount "1e3" is not a dollar amount; write it like 1,234.56 or $12'],
    ['$', 'amount "$" is not a dollar amount; write it like 1,234.56 or $12'],
    ['1 234', 'amount "1 234" is not a dollar amount; write it like 1,234.56 or $12'],
    ['1,000,000,000.01', 'amount "1,000,000,000.01" is over the $1,000,000,000.00 limit; check the amount'],
    [
      '99999999999999999999',
      'amount "99999999999999999999" is over the $1,000,000,000.00 limit; check the amount',
    ],
  ])('refuses "%s" with a message saying what to fix', (text, message) => {
    expect(() => parseCents(text)).toThrow(message)
  })

  it('names what the amount is in its message and answers 422', () => {
    let thrown: unknown
    try {
      parseCents('abc', 'award of claim 4711')
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({
      status: 422,
      message: 'award of claim 4711 "abc" is not a dollar amount; write it like 1,234.56 or $12',
    })
  })

  it('reads back every amount it formats, to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_CENTS }), (cents) => {
        expect(parseCents(formatCents(cents))).toBe(cents)
        expect(parseCents(formatCents(cents, 'es'))).toBe(cents)
      }),
      { numRuns: 2000 },
    )
  })
})

describe('formatCents', () => {
  it.each([
    [123456, '$1,234.56'],
    [0, '$0.00'],
    [5, '$0.05'],
    [100, '$1.00'],
    [100000000, '$1,000,000.00'],
    [-5, '-$0.05'],
  ])('writes %i cents as %s in English and in US Spanish', (cents, text) => {
    expect(formatCents(cents)).toBe(text)
    expect(formatCents(cents, 'es')).toBe(text)
  })

  it('refuses a fraction of a cent rather than round it away', () => {
    expect(() => formatCents(12.5)).toThrow('12.5 is not a whole number of cents')
  })
})

describe('isCents', () => {
  it('takes whole non-negative cents up to the limit only', () => {
    expect([0, 1999, MAX_CENTS].every(isCents)).toBe(true)
    expect([-1, 19.99, MAX_CENTS + 1, '100', Number.NaN].some(isCents)).toBe(false)
  })
})
