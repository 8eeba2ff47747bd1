import { AppError } from '../../src/app-error.ts'
import { formatCents, isCents } from '../../src/money.ts'
import { LOCALES, type Locale, type Translator } from '../../src/translate.ts'
import { equalWeights, splitByWeights, type ClaimShare } from './allocate-settlement.ts'
import { payoutTranslator } from './payout-texts.ts'

/** The IRS backup withholding rate (26 U.S.C. 3406), on a payee whose TIN is missing or wrong. */
export const BACKUP_WITHHOLDING_PERCENT = 24

/** A fee rate exactly as agreed: the percent as written ('40', '33.33'), or basis points (4000, 3333). */
export type FeeRate = { percent: string } | { basisPoints: number }

/** Where a claim's award goes, to the cent: gross = fee + costs + withholding + net. */
export interface PayoutSplit {
  grossCents: number
  /** The fee percent as written: '40', '33.33'. */
  feePercent: string
  feeCents: number
  /** The costs charged to this claim: those spent on it, at most what the award leaves after the fee. */
  costsCents: number
  /** Of the costs asked, those the firm advanced on this claim alone. */
  claimCostsCents: number
  /** Of the costs asked, this claim's share of the costs a batch spread over its claims. */
  batchCostsCents: number
  /** Costs spent on the claim that the award could not cover; the firm bears them, not the claimant. */
  costsWaivedCents: number
  isBackupWithholding: boolean
  /** Sent to the IRS on the claimant's behalf. */
  withholdingCents: number
  /** Paid to the claimant. */
  netCents: number
  /** How it was computed, line by line, in each language. */
  explanation: Record<Locale, string[]>
}

const PERCENT = /^(\d{1,3})(?:\.(\d{1,6}))?$/

/**
 * A claim's award split into the firm's fee, its case costs, backup withholding and the claimant's net,
 * in integer cents:
 * 1. fee = gross × percent / 100, rounded half up (exact: computed in BigInt from the written percent);
 * 2. costs = those spent on the claim (advanced on it alone, and its share of a batch's), capped at
 *    gross - fee: the agreement repays costs only out of a recovery, so the claimant never owes more
 *    than the award and the net is never below 0;
 * 3. withholding, when backup withholding applies: 24% of what is left for the claimant
 *    (gross - fee - costs, the payment reported for them), rounded half up;
 * 4. net = gross - fee - costs - withholding.
 * @example splitPayout({ grossCents: 100000, fee: { percent: '40' }, costsCents: 5000, isBackupWithholding: false }).netCents // 55000
 */
export function splitPayout({
  grossCents,
  fee,
  costsCents,
  claimCostsCents = 0,
  isBackupWithholding,
}: {
  grossCents: number
  fee: FeeRate
  /** The case costs spent on this claim (its own, plus its part of a batch's: spreadCosts). */
  costsCents: number
  /** The part of costsCents advanced on this claim alone (its award's costs); the rest is the batch's. */
  claimCostsCents?: number
  isBackupWithholding: boolean
}): PayoutSplit {
  assertCents(grossCents, 'award')
  assertCents(costsCents, 'costs')
  assertCents(claimCostsCents, 'costs advanced on the claim')
  if (claimCostsCents > costsCents) {
    throw refusal(`costs advanced on the claim (${claimCostsCents}) are more than its costs (${costsCents})`)
  }
  const { percent, numerator, denominator } = feeFraction(fee)
  const feeCents = roundHalfUp(BigInt(grossCents) * numerator, denominator)
  const chargedCosts = Math.min(costsCents, grossCents - feeCents)
  const base = grossCents - feeCents - chargedCosts
  const withholdingCents = isBackupWithholding
    ? roundHalfUp(BigInt(base) * BigInt(BACKUP_WITHHOLDING_PERCENT), 100n)
    : 0
  const split = {
    grossCents,
    feePercent: percent,
    feeCents,
    costsCents: chargedCosts,
    claimCostsCents,
    batchCostsCents: costsCents - claimCostsCents,
    costsWaivedCents: costsCents - chargedCosts,
    isBackupWithholding,
    withholdingCents,
    netCents: base - withholdingCents,
  }
  const explanation = Object.fromEntries(
    LOCALES.map((locale) => [locale, explainSplit(split, locale)]),
  ) as Record<Locale, string[]>
  return { ...split, explanation }
}

/**
 * A batch's shared costs spread equally over its claims, to the cent: the odd cents go one each to the
 * lowest claim ids (largest remainder), so the parts add up to the total.
 * @example spreadCosts(1000, [3, 1, 2]) // [{ claimId: 3, cents: 333 }, { claimId: 1, cents: 334 }, { claimId: 2, cents: 333 }]
 */
export function spreadCosts(totalCents: number, claimIds: readonly number[]): ClaimShare[] {
  return splitByWeights(totalCents, equalWeights(claimIds.map((claimId) => ({ claimId }))))
}

/** The rate as a fraction of one (40% is 40/100, 33.33% is 3333/10000) and as written. */
function feeFraction(fee: FeeRate): { percent: string; numerator: bigint; denominator: bigint } {
  if ('basisPoints' in fee) {
    const { basisPoints } = fee
    if (!Number.isSafeInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) {
      throw refusal(`fee of ${basisPoints} basis points is not a whole number from 0 to 10,000`)
    }
    const written = `${Math.trunc(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}`
    return { percent: written.replace(/\.?0+$/, ''), numerator: BigInt(basisPoints), denominator: 10_000n }
  }
  const match = PERCENT.exec(fee.percent)
  if (!match) throw refusal(`fee percent "${fee.percent}" is not a number like 40 or 33.33`)
  const [, whole = '', decimals = ''] = match
  const numerator = BigInt(`${whole}${decimals}`)
  const denominator = 100n * 10n ** BigInt(decimals.length)
  if (numerator > denominator) throw refusal(`fee percent "${fee.percent}" is above 100`)
  const plainDecimals = decimals.replace(/0+$/, '')
  const plainWhole = String(Number(whole))
  return { percent: plainDecimals ? `${plainWhole}.${plainDecimals}` : plainWhole, numerator, denominator }
}

/** value / divisor rounded to the nearest whole, a half rounded up; both non-negative. */
function roundHalfUp(value: bigint, divisor: bigint): number {
  return Number((2n * value + divisor) / (2n * divisor))
}

function assertCents(value: number, what: string): void {
  if (!isCents(value)) throw refusal(`${what} (${value}) is not a whole number of cents from $0.00 up`)
}

function refusal(message: string): AppError {
  return new AppError('UNPROCESSABLE', { status: 422, message })
}

function explainSplit(split: Omit<PayoutSplit, 'explanation'>, locale: Locale): string[] {
  const t = payoutTranslator(locale)
  const money = (cents: number) => formatCents(cents, locale)
  const gross = money(split.grossCents)
  const base = split.grossCents - split.feeCents - split.costsCents
  return [
    t('Award (gross recovery): {gross}', { gross }),
    t('Attorney fee: {percent}% of {gross} = {fee}, rounded to the nearest cent (half a cent rounds up)', {
      percent: split.feePercent,
      gross,
      fee: money(split.feeCents),
    }),
    ...explainCosts(split, t, money),
    split.isBackupWithholding
      ? t(
          'Backup withholding: {rate}% of {base} (the award less the fee and costs) = {withholding}, paid to the IRS for you because we do not have a correct taxpayer identification number for you',
          { rate: BACKUP_WITHHOLDING_PERCENT, base: money(base), withholding: money(split.withholdingCents) },
        )
      : t('Backup withholding: none'),
    t('Net to you: {gross} - {fee} - {costs} - {withholding} = {net}', {
      gross,
      fee: money(split.feeCents),
      costs: money(split.costsCents),
      withholding: money(split.withholdingCents),
      net: money(split.netCents),
    }),
  ]
}

/** The costs' lines: what was asked (the claim's own and its share of a batch's) and what was charged. */
function explainCosts(
  split: Omit<PayoutSplit, 'explanation'>,
  t: Translator,
  money: (cents: number) => string,
): string[] {
  const asked = split.costsCents + split.costsWaivedCents
  if (asked === 0) return [t('Case costs: none')]
  if (split.claimCostsCents === 0) {
    return [
      split.costsWaivedCents === 0
        ? t('Case costs: {costs}', { costs: money(split.costsCents) })
        : t(
            'Case costs: {costs} of the {asked} spent on your claim; the other {waived} is more than what remained after the fee, and you do not owe it',
            { costs: money(split.costsCents), asked: money(asked), waived: money(split.costsWaivedCents) },
          ),
    ]
  }
  return [
    split.batchCostsCents === 0
      ? t('Case costs the firm advanced on your claim: {claim}', { claim: money(split.claimCostsCents) })
      : t(
          'Case costs: {claim} the firm advanced on your claim + {batch}, your share of the costs shared among the claims paid with yours = {asked}',
          { claim: money(split.claimCostsCents), batch: money(split.batchCostsCents), asked: money(asked) },
        ),
    ...(split.costsWaivedCents === 0
      ? []
      : [
          t(
            'Of these costs, {costs} is charged; the other {waived} is more than what remained after the fee, and you do not owe it',
            { costs: money(split.costsCents), waived: money(split.costsWaivedCents) },
          ),
        ]),
  ]
}
