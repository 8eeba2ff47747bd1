/**
 * The fraud tests the server runs on each claim (server/fraud/), each with its reason code. A claim
 * starts at MAX_SCORE and each test that fires deducts its weight; forms/base/fraud.json sets the
 * weights, the tests' limits, the staff's texts and the thresholds, and an app's file may override
 * any of them under "fraud".
 */
export const FRAUD_TESTS = [
  'device_shared',
  'device_burst',
  'network_shared',
  'network_burst',
  'email_disposable',
  'email_variant',
  'phone_shared',
  'phone_unlikely',
  'name_near_duplicate',
  'address_many_names',
  'too_fast',
  'all_pasted',
  'screenshot_edited',
  'screenshot_size',
  'screenshot_duplicate',
  'respondent_listed',
] as const
export type FraudCode = (typeof FRAUD_TESTS)[number]

/** Where every claim's score starts. */
export const MAX_SCORE = 1000

export interface FraudTest {
  /** Points deducted when the test fires (0 turns it off). */
  weight: number
  /** Staff's name of the reason. */
  label: string
  /** Staff's sentence, with {count}, {names}, {seconds}, {software}, {width}, {height} or {list} filled in. */
  text: string
  /** The count from which a counting test fires. */
  atLeast?: number
  /** name_near_duplicate: the Jaro-Winkler similarity from which two names are one. */
  similarity?: number
  /** too_fast: a form sent sooner than this after it appeared. */
  seconds?: number
}

export interface FraudConfig {
  thresholds: {
    /** At or below: shown for review (the Score column marks it). */
    review: number
    /** At or below: held out of notice and filing batches until a decider clears it. */
    hold: number
  }
  tests: Record<FraudCode, FraudTest>
}

/** Each app's fraud config: the base with the app's own "fraud" laid over it. */
export type FraudConfigs = (app: string) => FraudConfig

/** One deduction of a claim's score, as stored and shown. */
export interface FraudReason {
  code: FraudCode
  points: number
  /** The staff's sentence, filled in. */
  text: string
  /** The other claims that made it fire (at most 20), for the details and the cluster. */
  related?: number[]
}

/** Where a claim stands: clear, to review, or held out of batches. */
export type FraudStanding = 'clear' | 'review' | 'hold'

export function fraudStanding(config: FraudConfig, score: number): FraudStanding {
  if (score <= config.thresholds.hold) return 'hold'
  if (score <= config.thresholds.review) return 'review'
  return 'clear'
}

/** A test's text with its values filled in. */
export function fraudText(test: FraudTest, values: Record<string, string | number>): string {
  return test.text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  )
}
