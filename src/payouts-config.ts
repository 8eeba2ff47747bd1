/**
 * An app's payout settings: forms/base/payouts.json, with what the app's own file (forms/<slug>.json)
 * sets under "payouts" laid over it (server/payouts/load-payouts-config.ts checks both at start-up).
 * @example loadPayoutsConfigs(formsDir, apps)('earnin').form1099ThresholdCents // 200000
 */
export interface PayoutsConfig {
  /**
   * A payee (one taxpayer number) paid this much or more in a calendar year, net plus withholding over
   * all their claims of every app, is in the year's 1099 file: $2,000.00 for payments made from 2026 (it
   * was $600 before). The firm's alone: an app's file may not change it.
   */
  form1099ThresholdCents: number
  /** A check not paid this many days after it was sent is listed as unclaimed funds. */
  uncashedCheckDays: number
  /**
   * Years after which unclaimed funds are reported to the claimant's state (escheat). States differ
   * (often 1 to 5 years for funds a law firm holds): the firm checks its states' rules and sets this.
   */
  dormancyYears: number
}

/**
 * Each app's payout settings: the base with the app's own "payouts" laid over it; `firm`, the base
 * alone, for what spans every app (the 1099 file).
 */
export type PayoutsConfigs = ((app: string) => PayoutsConfig) & { firm: PayoutsConfig }
