import {
  FRAUD_TESTS,
  fraudStanding,
  type FraudCode,
  type FraudConfig,
  type FraudReason,
} from '../../src/fraud-config.ts'
import { count, type ResultRow } from '../report.ts'
import { RING_KINDS, type PlannedClaim, type RingKind } from './plan.ts'

/** A measured claim's score and its reasons. */
export interface Scored {
  claim: PlannedClaim
  score: number
  reasons: FraudReason[]
}

/**
 * The reasons each ring kind is planted to trip: a held claim with one of them among its reasons is a
 * hold "for" that kind, so a genuine claimant held with it counts against the kind's precision.
 */
export const KIND_CODES: Record<RingKind, FraudCode[]> = {
  'one-device': ['device_shared', 'device_burst'],
  'one-address': ['address_many_names'],
  'email-variants': ['email_variant', 'email_disposable'],
  'near-duplicate-names': ['name_near_duplicate'],
  'bot-speed': ['too_fast', 'all_pasted', 'network_shared', 'network_burst'],
  'edited-screenshots': ['screenshot_edited', 'screenshot_size'],
}

export interface Measures {
  rows: ResultRow[]
  reasonRows: ResultRow[]
  precision: number
  recall: number
  genuineHeld: number
}

const ratio = (part: number, whole: number) => (whole === 0 ? Number.NaN : part / whole)
const share = (value: number) => (Number.isNaN(value) ? 'n/a' : value.toFixed(3))
const percent = (value: number) => (Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(2)} %`)

/**
 * Precision and recall of the hold (score at or below config.thresholds.hold) per ring kind and over
 * all rings, and the share of genuine claimants held or flagged for review (any claim of theirs).
 */
export function measureHolds(config: FraudConfig, scored: Scored[]): Measures {
  const isHeld = (item: Scored) => fraudStanding(config, item.score) === 'hold'
  const rings = scored.filter((item) => !item.claim.truth.genuine)
  const genuine = scored.filter((item) => item.claim.truth.genuine)
  const held = scored.filter(isHeld)
  const ringHeld = held.filter((item) => !item.claim.truth.genuine).length
  const precision = ratio(ringHeld, held.length)
  const recall = ratio(ringHeld, rings.length)
  const rows: ResultRow[] = []
  for (const kind of RING_KINDS) {
    const members = rings.filter((item) => !item.claim.truth.genuine && item.claim.truth.kind === kind)
    const ringCount = new Set(members.map((item) => (item.claim.truth.genuine ? 0 : item.claim.truth.ring)))
      .size
    const heldFor = held.filter((item) =>
      item.reasons.some((reason) => KIND_CODES[kind].includes(reason.code)),
    )
    const kindPrecision = ratio(heldFor.filter((item) => !item.claim.truth.genuine).length, heldFor.length)
    const kindRecall = ratio(members.filter(isHeld).length, members.length)
    rows.push({
      benchmark: `${kind}: ${count(members.length)} claims in ${count(ringCount)} rings`,
      figure: `precision ${share(kindPrecision)}, recall ${share(kindRecall)}`,
      budget: '',
    })
  }
  rows.push({
    benchmark: `all rings: ${count(rings.length)} claims, ${count(ringHeld)} held`,
    figure: `precision ${share(precision)}, recall ${share(recall)}`,
    budget: 'precision ≥ 0.95, recall ≥ 0.90',
    isWithinBudget: precision >= 0.95 && recall >= 0.9,
  })
  const people = new Map<number, Scored[]>()
  for (const item of genuine) {
    if (!item.claim.truth.genuine) continue
    const claims = people.get(item.claim.truth.person) ?? []
    claims.push(item)
    people.set(item.claim.truth.person, claims)
  }
  const standings = [...people.values()].map((claims) => {
    const worst = Math.min(...claims.map((item) => item.score))
    return fraudStanding(config, worst)
  })
  const genuineHeld = ratio(standings.filter((standing) => standing === 'hold').length, people.size)
  const genuineReview = ratio(standings.filter((standing) => standing === 'review').length, people.size)
  rows.push(
    {
      benchmark: `genuine claimants held (${count(people.size)} claimants, ${count(genuine.length)} claims)`,
      figure: `${percent(genuineHeld)} (${count(standings.filter((s) => s === 'hold').length)}; ${count(genuine.filter(isHeld).length)} claims)`,
      budget: '≤ 1 %',
      isWithinBudget: genuineHeld <= 0.01,
    },
    {
      benchmark: 'genuine claimants flagged for review (not held)',
      figure: `${percent(genuineReview)} (${count(standings.filter((s) => s === 'review').length)})`,
      budget: '',
    },
  )
  const reasonRows: ResultRow[] = FRAUD_TESTS.map((code) => {
    const fired = (list: Scored[]) =>
      list.filter((item) => item.reasons.some((reason) => reason.code === code)).length
    return {
      benchmark: code,
      figure: `genuine ${count(fired(genuine))} (${percent(ratio(fired(genuine), genuine.length))}), rings ${count(fired(rings))} (${percent(ratio(fired(rings), rings.length))})`,
      budget: '',
    }
  })
  return { rows, reasonRows, precision, recall, genuineHeld }
}

/** Up to `limit` genuine claims held and ring claims missed (by kind), with their reasons, to tune by. */
export function examples(config: FraudConfig, scored: Scored[], limit: number): string[] {
  const line = (item: Scored) =>
    `  ${item.score} ${item.claim.firstName} ${item.claim.lastName} <${item.claim.email}> ${item.claim.intake ? `${item.claim.intake.street} ${item.claim.intake.line2}`.trim() : '(no main form)'}: ${item.reasons.map((reason) => `${reason.code} -${reason.points}`).join(', ') || 'none'}`
  const held = scored.filter(
    (item) => item.claim.truth.genuine && fraudStanding(config, item.score) === 'hold',
  )
  const lines = [
    `genuine claims held (${held.length}):`,
    ...combinations(held),
    ...held.slice(0, limit).map(line),
  ]
  for (const kind of RING_KINDS) {
    const missed = scored.filter(
      (item) =>
        !item.claim.truth.genuine &&
        item.claim.truth.kind === kind &&
        fraudStanding(config, item.score) !== 'hold',
    )
    lines.push(
      `${kind} missed (${missed.length}):`,
      ...combinations(missed),
      ...missed.slice(0, limit).map(line),
    )
  }
  return lines
}

/** How often each set of reasons occurs among the claims, most often first. */
function combinations(list: Scored[]): string[] {
  const counts = new Map<string, number>()
  for (const item of list) {
    const key =
      item.reasons
        .map((reason) => reason.code)
        .sort()
        .join(' + ') || 'none'
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([key, times]) => `  × ${times}: ${key}`)
}
