import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allocateSettlement, splitByWeights } from './allocate-settlement.ts'

const claims = (...ids: number[]) => ids.map((claimId) => ({ claimId }))

function thrownBy(run: () => unknown): unknown {
  try {
    run()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

describe('allocateSettlement', () => {
  it('shares $100.00 equally among three claims, the odd cent to the lowest claim id', () => {
    expect(allocateSettlement({ totalCents: 10000, rule: 'equal', claims: claims(30, 10, 20) })).toEqual([
      { claimId: 30, cents: 3333 },
      { claimId: 10, cents: 3334 },
      { claimId: 20, cents: 3333 },
    ])
  })

  it('gives two left-over cents to the two lowest claim ids, whatever order the claims come in', () => {
    const shares = (ids: number[]) =>
      allocateSettlement({ totalCents: 5, rule: 'equal', claims: claims(...ids) }).sort(
        (a, b) => a.claimId - b.claimId,
      )
    expect(shares([4, 1, 3, 2])).toEqual([
      { claimId: 1, cents: 2 },
      { claimId: 2, cents: 1 },
      { claimId: 3, cents: 1 },
      { claimId: 4, cents: 1 },
    ])
    expect(shares([2, 3, 4, 1])).toEqual(shares([4, 1, 3, 2]))
  })

  it('shares by cash advances, the left-over cent to the claim whose rounding took the most', () => {
    // exact shares 1000 * 1/6, 2/6, 3/6 = 166.67, 333.33, 500
    const shares = allocateSettlement({
      totalCents: 1000,
      rule: 'cashAdvanceCount',
      claims: [
        { claimId: 1, cashAdvanceCount: 1 },
        { claimId: 2, cashAdvanceCount: 2 },
        { claimId: 3, cashAdvanceCount: 3 },
      ],
    })
    expect(shares).toEqual([
      { claimId: 1, cents: 167 },
      { claimId: 2, cents: 333 },
      { claimId: 3, cents: 500 },
    ])
  })

  it('refuses to share by cash advances while a claim has none or none counted, naming each', () => {
    const error = thrownBy(() =>
      allocateSettlement({
        totalCents: 1000,
        rule: 'cashAdvanceCount',
        claims: [
          { claimId: 1, cashAdvanceCount: 2 },
          { claimId: 7, cashAdvanceCount: 0 },
          { claimId: 8 },
          { claimId: 9, cashAdvanceCount: null },
          { claimId: 10, cashAdvanceCount: 1.5 },
        ],
      }),
    )
    expect(error).toMatchObject({
      status: 422,
      details: {
        claimIds: [7, 8, 9, 10],
        problems: [
          'claim 7: "0" cash advances counted; a share by cash advances needs 1 or more',
          'claim 8: no cash advances counted; a share by cash advances needs 1 or more',
          'claim 9: no cash advances counted; a share by cash advances needs 1 or more',
          'claim 10: "1.5" cash advances counted; a share by cash advances needs 1 or more',
        ],
      },
    })
    expect((error as Error).message).toMatch(
      /^4 of 5 claims cannot share the settlement by their cash advances; count them first or share it equally:\nclaim 7: /,
    )
  })

  it('shares equally without reading cash advances at all', () => {
    const shares = allocateSettlement({
      totalCents: 10,
      rule: 'equal',
      claims: [{ claimId: 1, cashAdvanceCount: 0 }, { claimId: 2 }],
    })
    expect(shares).toEqual([
      { claimId: 1, cents: 5 },
      { claimId: 2, cents: 5 },
    ])
  })

  it('refuses a sharing rule it does not know', () => {
    const rule = 'byAmount' as 'equal'
    expect(() => allocateSettlement({ totalCents: 100, rule, claims: claims(1) })).toThrow(
      'sharing rule "byAmount" is not known; use "equal" or "cashAdvanceCount"',
    )
  })

  it('refuses no claims, a claim listed twice, and a total that is not whole cents', () => {
    expect(() => allocateSettlement({ totalCents: 100, rule: 'equal', claims: [] })).toThrow(
      'there are no claims to share the total among',
    )
    expect(() => allocateSettlement({ totalCents: 100, rule: 'equal', claims: claims(1, 2, 1) })).toThrow(
      'listed more than once: claim 1; list each claim once',
    )
    expect(() => allocateSettlement({ totalCents: 10.5, rule: 'equal', claims: claims(1) })).toThrow(
      'the total to share (10.5) is not a whole number of cents from $0.00 to $1,000,000,000.00',
    )
    expect(() => allocateSettlement({ totalCents: -1, rule: 'equal', claims: claims(1) })).toThrow(
      'the total to share (-1)',
    )
  })

  it('shares a billion dollars by large weights exactly', () => {
    const shares = splitByWeights(100_000_000_000, [
      { claimId: 1, weight: 9_000_000 },
      { claimId: 2, weight: 1 },
      { claimId: 3, weight: 2 },
    ])
    expect(shares.reduce((sum, { cents }) => sum + cents, 0)).toBe(100_000_000_000)
    expect(shares.map(({ cents }) => cents)).toEqual([99_999_966_667, 11_111, 22_222])
  })

  it('always adds up to the total, each share within a cent of its exact value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000_000_000 }),
        fc.uniqueArray(
          fc.record({ claimId: fc.integer({ min: 1, max: 1e6 }), weight: fc.integer({ min: 1, max: 500 }) }),
          {
            minLength: 1,
            maxLength: 60,
            selector: ({ claimId }) => claimId,
          },
        ),
        (total, weights) => {
          const shares = splitByWeights(total, weights)
          const sum = weights.reduce((acc, { weight }) => acc + weight, 0)
          expect(shares.reduce((acc, { cents }) => acc + cents, 0)).toBe(total)
          shares.forEach(({ claimId, cents }, index) => {
            expect(claimId).toBe(weights[index]!.claimId)
            expect(Number.isSafeInteger(cents) && cents >= 0).toBe(true)
            const exact = (BigInt(total) * BigInt(weights[index]!.weight)) / BigInt(sum)
            expect(BigInt(cents) - exact).toBeGreaterThanOrEqual(0n)
            expect(BigInt(cents) - exact).toBeLessThanOrEqual(1n)
          })
        },
      ),
      { numRuns: 2000 },
    )
  })
})
