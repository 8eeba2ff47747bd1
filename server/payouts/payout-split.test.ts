import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_CENTS } from '../../src/money.ts'
import { spreadCosts, splitPayout } from './payout-split.ts'

const noWithholding = { isBackupWithholding: false }

describe('splitPayout', () => {
  it('takes 40% of a $1,000.00 award, then $50.00 of costs, and pays $550.00', () => {
    const split = splitPayout({
      grossCents: 100000,
      fee: { percent: '40' },
      costsCents: 5000,
      ...noWithholding,
    })
    expect(split).toMatchObject({
      grossCents: 100000,
      feePercent: '40',
      feeCents: 40000,
      costsCents: 5000,
      costsWaivedCents: 0,
      withholdingCents: 0,
      netCents: 55000,
    })
    expect(split.explanation.en).toEqual([
      'Award (gross recovery): $1,000.00',
      'Attorney fee: 40% of $1,000.00 = $400.00, rounded to the nearest cent (half a cent rounds up)',
      'Case costs: $50.00',
      'Backup withholding: none',
      'Net to you: $1,000.00 - $400.00 - $50.00 - $0.00 = $550.00',
    ])
    expect(split.explanation.es).toEqual([
      'Monto otorgado (recuperación bruta): $1,000.00',
      'Honorarios de abogados: el 40% de $1,000.00 = $400.00, redondeado al centavo más cercano (medio centavo se redondea hacia arriba)',
      'Gastos del caso: $50.00',
      'Retención adicional: ninguna',
      'Neto para usted: $1,000.00 - $400.00 - $50.00 - $0.00 = $550.00',
    ])
  })

  it('rounds a fee of exactly half a cent up, and less than half down', () => {
    // 33.33% of $0.15 is 4.9995 cents; 40% of $0.01 is 0.4; 50% of $0.01 is 0.5
    expect(
      splitPayout({ grossCents: 15, fee: { percent: '33.33' }, costsCents: 0, ...noWithholding }).feeCents,
    ).toBe(5)
    expect(
      splitPayout({ grossCents: 1, fee: { percent: '40' }, costsCents: 0, ...noWithholding }).feeCents,
    ).toBe(0)
    expect(
      splitPayout({ grossCents: 1, fee: { percent: '50' }, costsCents: 0, ...noWithholding }).feeCents,
    ).toBe(1)
    // 12.5% of $1.00 is 12.5 cents
    expect(
      splitPayout({ grossCents: 100, fee: { percent: '12.5' }, costsCents: 0, ...noWithholding }).feeCents,
    ).toBe(13)
  })

  it('computes the same fee from a percent and from its basis points, where a float would be a cent off', () => {
    // 50 * 0.29 is 14.499999999999998 in floating point, which rounds to 14; exactly it is 14.5, so 15
    const fromPercent = splitPayout({
      grossCents: 50,
      fee: { percent: '29' },
      costsCents: 0,
      ...noWithholding,
    })
    expect(fromPercent.feeCents).toBe(15)
    const fromBasisPoints = splitPayout({
      grossCents: 50,
      fee: { basisPoints: 2900 },
      costsCents: 0,
      ...noWithholding,
    })
    expect(fromBasisPoints).toEqual(fromPercent)
    const third = splitPayout({
      grossCents: 123457,
      fee: { basisPoints: 3333 },
      costsCents: 0,
      ...noWithholding,
    })
    expect(third.feePercent).toBe('33.33')
    expect(third.feeCents).toBe(41148) // 123457 * 0.3333 = 41148.2181
  })

  it('charges costs only up to what the award leaves after the fee, and says the rest is not owed', () => {
    const split = splitPayout({
      grossCents: 10000,
      fee: { percent: '40' },
      costsCents: 8000,
      ...noWithholding,
    })
    expect(split).toMatchObject({ feeCents: 4000, costsCents: 6000, costsWaivedCents: 2000, netCents: 0 })
    expect(split.explanation.en[2]).toBe(
      'Case costs: $60.00 of the $80.00 spent on your claim; the other $20.00 is more than what remained after the fee, and you do not owe it',
    )
    expect(split.explanation.es[2]).toBe(
      'Gastos del caso: $60.00 de los $80.00 gastados en su reclamo; los otros $20.00 superan lo que quedó después de los honorarios, y usted no los debe',
    )
  })

  it("counts the costs advanced on the claim with its share of the batch's, and says which is which", () => {
    const split = splitPayout({
      grossCents: 100000,
      fee: { percent: '40' },
      costsCents: 7500 + 250,
      claimCostsCents: 7500,
      ...noWithholding,
    })
    expect(split).toMatchObject({
      costsCents: 7750,
      claimCostsCents: 7500,
      batchCostsCents: 250,
      costsWaivedCents: 0,
      netCents: 52250,
    })
    expect(split.explanation.en[2]).toBe(
      'Case costs: $75.00 the firm advanced on your claim + $2.50, your share of the costs shared among the claims paid with yours = $77.50',
    )
    expect(split.explanation.es[2]).toBe(
      'Gastos del caso: $75.00 que la firma adelantó en su reclamo + $2.50, su parte de los gastos compartidos entre los reclamos pagados con el suyo = $77.50',
    )
    const alone = splitPayout({
      grossCents: 100000,
      fee: { percent: '40' },
      costsCents: 7500,
      claimCostsCents: 7500,
      ...noWithholding,
    })
    expect(alone.explanation.en[2]).toBe('Case costs the firm advanced on your claim: $75.00')
  })

  it('caps the costs advanced on a claim with its batch share at what the fee leaves, the rest not owed', () => {
    const split = splitPayout({
      grossCents: 10000,
      fee: { percent: '40' },
      costsCents: 5000 + 2000,
      claimCostsCents: 5000,
      ...noWithholding,
    })
    expect(split).toMatchObject({ costsCents: 6000, costsWaivedCents: 1000, netCents: 0 })
    expect(split.explanation.en.slice(2, 4)).toEqual([
      'Case costs: $50.00 the firm advanced on your claim + $20.00, your share of the costs shared among the claims paid with yours = $70.00',
      'Of these costs, $60.00 is charged; the other $10.00 is more than what remained after the fee, and you do not owe it',
    ])
    expect(() =>
      splitPayout({
        grossCents: 100,
        fee: { percent: '40' },
        costsCents: 5,
        claimCostsCents: 6,
        ...noWithholding,
      }),
    ).toThrow('costs advanced on the claim (6) are more than its costs (5)')
  })

  it('withholds 24% of what is left for the claimant when backup withholding applies', () => {
    const split = splitPayout({
      grossCents: 100000,
      fee: { percent: '40' },
      costsCents: 5000,
      isBackupWithholding: true,
    })
    expect(split).toMatchObject({ withholdingCents: 13200, netCents: 41800 })
    expect(split.explanation.en.slice(3)).toEqual([
      'Backup withholding: 24% of $550.00 (the award less the fee and costs) = $132.00, paid to the IRS for you because we do not have a correct taxpayer identification number for you',
      'Net to you: $1,000.00 - $400.00 - $50.00 - $132.00 = $418.00',
    ])
    expect(split.explanation.es[3]).toBe(
      'Retención adicional: el 24% de $550.00 (el monto otorgado menos los honorarios y los gastos) = $132.00, pagada al IRS a su nombre porque no tenemos un número de identificación del contribuyente correcto para usted',
    )
  })

  it('rounds withholding half up: 24% of $0.02 is 0.48 cents (none), of $0.03 is 0.72 (one cent)', () => {
    const withheld = (grossCents: number) =>
      splitPayout({ grossCents, fee: { percent: '0' }, costsCents: 0, isBackupWithholding: true })
        .withholdingCents
    expect(withheld(2)).toBe(0)
    expect(withheld(3)).toBe(1)
    expect(withheld(2085)).toBe(500) // 500.4
    expect(withheld(2125)).toBe(510) // exactly 510
  })

  it('takes the whole award at 100% and nothing at 0%', () => {
    expect(
      splitPayout({ grossCents: 999, fee: { percent: '100' }, costsCents: 50, ...noWithholding }),
    ).toMatchObject({
      feeCents: 999,
      costsCents: 0,
      costsWaivedCents: 50,
      netCents: 0,
    })
    expect(
      splitPayout({ grossCents: 999, fee: { basisPoints: 0 }, costsCents: 0, ...noWithholding }).netCents,
    ).toBe(999)
  })

  it.each([
    [{ percent: '40%' }, 'fee percent "40%" is not a number like 40 or 33.33'],
    [{ percent: '' }, 'fee percent "" is not a number like 40 or 33.33'],
    [{ percent: '-5' }, 'fee percent "-5" is not a number like 40 or 33.33'],
    [{ percent: '100.01' }, 'fee percent "100.01" is above 100'],
    [{ basisPoints: 40.5 }, 'fee of 40.5 basis points is not a whole number from 0 to 10,000'],
    [{ basisPoints: 10001 }, 'fee of 10001 basis points is not a whole number from 0 to 10,000'],
  ])('refuses the fee %o', (fee, message) => {
    expect(() => splitPayout({ grossCents: 100, fee, costsCents: 0, ...noWithholding })).toThrow(message)
  })

  it('refuses an award or costs that are not whole cents', () => {
    expect(() =>
      splitPayout({ grossCents: 10.5, fee: { percent: '40' }, costsCents: 0, ...noWithholding }),
    ).toThrow('award (10.5) is not a whole number of cents from $0.00 up')
    expect(() =>
      splitPayout({ grossCents: 100, fee: { percent: '40' }, costsCents: -1, ...noWithholding }),
    ).toThrow('costs (-1) is not a whole number of cents from $0.00 up')
  })

  it('always accounts for every cent: gross = fee + costs + withholding + net, none negative', () => {
    const fee = fc.oneof(
      fc.integer({ min: 0, max: 10_000 }).map((basisPoints) => ({ basisPoints })),
      fc
        .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 9999 }))
        .map(([whole, decimals]) => ({ percent: `${whole}.${String(decimals).padStart(4, '0')}` })),
      fc.integer({ min: 0, max: 100 }).map((whole) => ({ percent: String(whole) })),
    )
    const cents = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: MAX_CENTS }))
    fc.assert(
      fc.property(
        cents,
        fee,
        cents,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (grossCents, rate, costsCents, ownPart, isBackupWithholding) => {
          const claimCostsCents = Math.floor(costsCents * ownPart)
          const split = splitPayout({
            grossCents,
            fee: rate,
            costsCents,
            claimCostsCents,
            isBackupWithholding,
          })
          const parts = [split.feeCents, split.costsCents, split.withholdingCents, split.netCents]
          for (const part of [...parts, split.costsWaivedCents]) {
            expect(Number.isSafeInteger(part) && part >= 0).toBe(true)
          }
          expect(parts.reduce((sum, part) => sum + part, 0)).toBe(grossCents)
          expect(split.costsCents + split.costsWaivedCents).toBe(costsCents)
          expect(split.claimCostsCents + split.batchCostsCents).toBe(costsCents)
          if (!isBackupWithholding) expect(split.withholdingCents).toBe(0)
        },
      ),
      { numRuns: 5000 },
    )
  })
})

describe('spreadCosts', () => {
  it('spreads $10.00 over three claims, the odd cent to the lowest claim id', () => {
    expect(spreadCosts(1000, [3, 1, 2])).toEqual([
      { claimId: 3, cents: 333 },
      { claimId: 1, cents: 334 },
      { claimId: 2, cents: 333 },
    ])
  })

  it('adds up to the total for any batch', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_CENTS }),
        fc.uniqueArray(fc.integer({ min: 1, max: 1e7 }), { minLength: 1, maxLength: 200 }),
        (total, ids) => {
          const parts = spreadCosts(total, ids).map(({ cents }) => cents)
          expect(parts.reduce((sum, part) => sum + part, 0)).toBe(total)
          expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1)
        },
      ),
      { numRuns: 1000 },
    )
  })
})
