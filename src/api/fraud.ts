/**
 * What the staff's fraud endpoints answer (server/dashboard/fraud.routes.ts) and the dashboards read:
 * a claim's score with its reasons, its cluster, and "Not fraud".
 * @example const fraud: ClaimFraud = await fetchJson(`/api/staff/claims/${id}/fraud`)
 */
import { fraudStanding, type FraudCode, type FraudConfig, type FraudStanding } from '../fraud-config.ts'

/**
 * Where a claim stands on the dashboards: its score's standing (hold, review, clear), cleared by a
 * decider ("Not fraud"), or not scored yet. Each is also a value of the list's ?fraud= filter.
 */
export type ClaimFraudStanding = FraudStanding | 'cleared' | 'unscored'

export const CLAIM_FRAUD_STANDINGS = [
  'hold',
  'review',
  'clear',
  'cleared',
  'unscored',
] as const satisfies readonly ClaimFraudStanding[]

/** How the Score column and the filter name each standing. */
export const FRAUD_STANDING_LABELS: Record<ClaimFraudStanding, string> = {
  hold: 'Hold',
  review: 'Review',
  clear: 'Clear',
  cleared: 'Cleared',
  unscored: 'Not scored yet',
}

/**
 * A claim's standing from its score and its "Not fraud" decision, by its app's thresholds.
 * @example claimFraudStanding(config, { score: 400, clearedAt: null }) // 'hold'
 */
export function claimFraudStanding(
  config: FraudConfig,
  { score, clearedAt }: { score: number | null; clearedAt: number | null },
): ClaimFraudStanding {
  if (clearedAt !== null) return 'cleared'
  if (score === null) return 'unscored'
  return fraudStanding(config, score)
}

/** The longest "Not fraud" note. */
export const MAX_FRAUD_NOTE_LENGTH = 500

/** The identity keys claims are filed under (server/fraud/fraud-tests.ts KEY_KINDS); sharing one ties two claims. */
export const FRAUD_KEY_KINDS = ['device', 'network', 'email', 'phone', 'address'] as const
export type FraudKeyKind = (typeof FRAUD_KEY_KINDS)[number]

/** How the cluster names each key shared. */
export const FRAUD_KEY_LABELS: Record<FraudKeyKind, string> = {
  device: 'Device',
  network: 'Network',
  email: 'E-mail',
  phone: 'Phone',
  address: 'Address',
}

/** Another claim a reason names, when the account may see its app. */
export interface RelatedClaim {
  id: number
  /** Its app's slug: its dashboard is /{app}-admin. */
  app: string
}

/** One deduction of the claim's score as the details show it. */
export interface ClaimFraudReason {
  code: FraudCode
  /** The test's name (fraud.json's label). */
  label: string
  points: number
  /** The staff's sentence, filled in. */
  text: string
  /** The claims that made it fire, those the account may see. */
  related: RelatedClaim[]
}

/** GET /api/staff/claims/:id/fraud: the claim's score, its reasons and its "Not fraud" decision. */
export interface ClaimFraud {
  claimId: number
  /** null until the score job has scored it. */
  score: number | null
  standing: ClaimFraudStanding
  /** The app's thresholds: at or below `hold` the claim is held out of batches, at or below `review` it is shown for review. */
  thresholds: { review: number; hold: number }
  reasons: ClaimFraudReason[]
  scoredAt: string | null
  /** Who decided "Not fraud", when, their note and the score they saw; null while nobody did. */
  cleared: { at: string; by: string; note: string; score: number } | null
  /** How many claims the cluster lists (this one included), up to the cluster's cap; 1 when none shares a key. */
  clusterSize: number
  /** Whether the cluster holds more claims than it lists. */
  isClusterCapped: boolean
  /** Whether this account may decide the claim ("Not fraud"): the app's decide right. */
  mayDecide: boolean
}

/** POST /api/staff/claims/:id/not-fraud takes this (the note is required) and answers ClaimFraud. */
export interface NotFraudRequest {
  note: string
}

/** One claim of a cluster. */
export interface FraudClusterClaim {
  id: number
  app: string
  appName: string
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
  score: number | null
  standing: ClaimFraudStanding
  /** Its review status, and that status's label in its app. */
  status: string
  statusLabel: string
  /** The keys it shares with the claim the cluster is of (none for that claim itself). */
  shared: FraudKeyKind[]
}

/**
 * GET /api/staff/claims/:id/cluster: every claim sharing an identity key with this one (its device, its
 * e-mail or an e-mail variant of it, its phone, its postal address; its network within a day), this
 * one first, then those sharing the most keys; only claims of apps the account may see.
 */
export interface FraudCluster {
  claimId: number
  app: string
  /** The keys this claim is filed under, each with how many of the listed claims share it. */
  keys: { kind: FraudKeyKind; count: number }[]
  claims: FraudClusterClaim[]
  /** More claims share a key than the list holds (MAX_CLUSTER_CLAIMS). */
  isCapped: boolean
}

/** The most claims a cluster lists. */
export const MAX_CLUSTER_CLAIMS = 500
