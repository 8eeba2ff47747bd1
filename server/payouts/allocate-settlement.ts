import { AppError } from '../../src/app-error.ts'
import { formatCents, isCents, MAX_CENTS } from '../../src/money.ts'

/** How a settlement is shared: the same for every claim, or in proportion to each claim's cash advances. */
export type AllocationRule = 'equal' | 'cashAdvanceCount'

export interface SettlementClaim {
  claimId: number
  /** The claim's cash advances; read by the 'cashAdvanceCount' rule only. */
  cashAdvanceCount?: number | null
}

/** One claim's part of an amount, in integer cents. */
export interface ClaimShare {
  claimId: number
  cents: number
}

/**
 * A settlement's total split among its claims by `rule`, in the claims' order; the shares add up to
 * the total exactly. Refuses (422, naming every claim at fault) a claim without a positive whole
 * number of cash advances under 'cashAdvanceCount', rather than give it nothing or guess.
 */
export function allocateSettlement({
  totalCents,
  rule,
  claims,
}: {
  totalCents: number
  rule: AllocationRule
  claims: readonly SettlementClaim[]
}): ClaimShare[] {
  if (rule === 'equal') return splitByWeights(totalCents, equalWeights(claims))
  if (rule !== 'cashAdvanceCount') {
    throw new AppError('UNPROCESSABLE', {
      status: 422,
      message: `sharing rule "${String(rule)}" is not known; use "equal" or "cashAdvanceCount"`,
    })
  }
  const unweighted = claims.filter(
    ({ cashAdvanceCount: count }) => !(typeof count === 'number' && Number.isSafeInteger(count) && count > 0),
  )
  if (unweighted.length > 0) {
    const problems = unweighted.map(
      ({ claimId, cashAdvanceCount: count }) =>
        `claim ${claimId}: ${count === undefined || count === null ? 'no' : `"${count}"`} cash advances counted; a share by cash advances needs 1 or more`,
    )
    throw new AppError('UNPROCESSABLE', {
      status: 422,
      message: `${unweighted.length} of ${claims.length} claims cannot share the settlement by their cash advances; count them first or share it equally:\n${problems.join('\n')}`,
      details: { problems, claimIds: unweighted.map(({ claimId }) => claimId) },
    })
  }
  return splitByWeights(
    totalCents,
    claims.map(({ claimId, cashAdvanceCount }) => ({ claimId, weight: cashAdvanceCount! })),
  )
}

/** Every claim weighing the same. */
export function equalWeights(claims: readonly { claimId: number }[]): { claimId: number; weight: number }[] {
  return claims.map(({ claimId }) => ({ claimId, weight: 1 }))
}

/**
 * `totalCents` shared in proportion to positive whole weights by the largest-remainder method: each
 * claim first gets its exact share rounded down, then the cents left over go one each to the claims
 * whose rounding took the most, the lower claim id first when two took the same. So the shares add up
 * to the total, no share is more than a cent off its exact value, and the same input always gives the
 * same cents. Computed in BigInt: a billion-dollar total times a large weight is past 2^53.
 * @example splitByWeights(100, [{ claimId: 2, weight: 1 }, { claimId: 1, weight: 1 }, { claimId: 3, weight: 1 }])
 *   // [{ claimId: 2, cents: 33 }, { claimId: 1, cents: 34 }, { claimId: 3, cents: 33 }]
 */
export function splitByWeights(
  totalCents: number,
  weights: readonly { claimId: number; weight: number }[],
): ClaimShare[] {
  if (!isCents(totalCents)) {
    throw new AppError('UNPROCESSABLE', {
      status: 422,
      message: `the total to share (${totalCents}) is not a whole number of cents from $0.00 to ${formatCents(MAX_CENTS)}`,
    })
  }
  if (weights.length === 0) {
    throw new AppError('UNPROCESSABLE', {
      status: 422,
      message: 'there are no claims to share the total among',
    })
  }
  const seen = new Set<number>()
  const repeated = new Set<number>()
  for (const { claimId } of weights) (seen.has(claimId) ? repeated : seen).add(claimId)
  if (repeated.size > 0) {
    throw new AppError('UNPROCESSABLE', {
      status: 422,
      message: `listed more than once: claim ${[...repeated].join(', ')}; list each claim once`,
    })
  }
  for (const { claimId, weight } of weights) {
    if (!Number.isSafeInteger(weight) || weight <= 0) {
      throw new AppError('UNPROCESSABLE', {
        status: 422,
        message: `claim ${claimId}: its weight "${weight}" is not a whole number above 0`,
      })
    }
  }
  const total = BigInt(totalCents)
  const sum = weights.reduce((acc, { weight }) => acc + BigInt(weight), 0n)
  const shares = weights.map(({ claimId, weight }) => {
    const exact = total * BigInt(weight)
    return { claimId, cents: exact / sum, remainder: exact % sum }
  })
  let left = total - shares.reduce((acc, share) => acc + share.cents, 0n)
  const byRemainder = [...shares].sort((a, b) =>
    a.remainder === b.remainder ? a.claimId - b.claimId : a.remainder > b.remainder ? -1 : 1,
  )
  for (const share of byRemainder) {
    if (left === 0n) break
    share.cents += 1n
    left -= 1n
  }
  return shares.map(({ claimId, cents }) => ({ claimId, cents: Number(cents) }))
}
