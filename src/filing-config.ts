/**
 * What a provider's spreadsheet column can take from a claim: the only names a profile may use, so a
 * typo in a profile stops the start-up instead of leaving a column empty in a filing.
 * forms/provider-profile.schema.json lists the same names (src/filing-config.test.ts holds them equal).
 * @example const column: { header: string; field: FilingField } = { header: 'ZIP', field: 'zip' }
 */
export const FILING_FIELDS = [
  'rowId',
  'claimId',
  'firstName',
  'lastName',
  'fullName',
  'street',
  'addressLine2',
  'city',
  'state',
  'zip',
  'email',
  'phone',
  'app',
  'respondent',
  'respondentAddress',
  'representativeName',
  'representativeBarNumber',
  'representativeEmail',
  'representativePhone',
  'representativeFirm',
  'filedAt',
] as const
export type FilingField = (typeof FILING_FIELDS)[number]

/** An attorney who files for the claimants. */
export interface Representative {
  name: string
  barNumber: string
  email: string
  phone: string
  firm: string
}

/** One tier of a provider's fee table: the cases from `fromCase` to `toCase` (no end when null). */
export interface FeeTier {
  fromCase: number
  toCase: number | null
  /** What each side pays a case in this tier, in US dollars. */
  claimantPerCase: number
  respondentPerCase: number
}

/** forms/providers/<name>.json (shaped by forms/provider-profile.schema.json): how a provider takes a mass filing. */
export interface ProviderProfile {
  /** The provider's name as the batch page shows it. */
  name: string
  /** Counsel's statement that each row is true: AAA asks an affirmation, JAMS and FedArb a declaration. */
  statement: 'affirmation' | 'declaration'
  /** The spreadsheet's columns, in order: each its header and the claim's field it takes. */
  columns: { header: string; field: FilingField }[]
  /** Fields a claim must have before it can be filed with this provider. */
  required: FilingField[]
  /** An estimate for the batch page, never a quote: the provider's schedule decides. */
  fees: FeeTable
}

/**
 * A provider's fees as the profile sets them, in US dollars: what each side pays once for the whole
 * filing, and per case by tier.
 * @example { note: 'estimate', perBatch: { claimant: 0, respondent: 0 }, tiers: [{ fromCase: 1, toCase: null, claimantPerCase: 0, respondentPerCase: 200 }] }
 */
export interface FeeTable {
  /** Where the figures come from and what they leave out. */
  note: string
  perBatch: { claimant: number; respondent: number }
  /** From case 1 upwards without a gap; only the last may be open-ended. */
  tiers: FeeTier[]
}

/** The respondent a notice is sent to and an arbitration is filed against. */
export interface Respondent {
  legalName: string
  /** The notice address's lines, as printed on the envelope. */
  noticeAddress: string[]
}

/**
 * An app's filing settings: forms/base/filing.json with the app's own "filing" laid over it, shaped by
 * forms/filing.schema.json. An app without a respondent cannot be noticed or filed yet.
 */
export interface FilingSettings {
  respondent?: Respondent
  /** Template names in notices/ and demands/ (without .hbs). */
  noticeTemplate: string
  demandTemplate: string
  /** Days after the notice is sent before a demand may be filed. */
  waitingPeriodDays: number
  /** What each claimant's demand claims, in US dollars (forms/base/filing.json, an app's "filing" overrides). */
  amountClaimedUsd: number
  /** A profile in forms/providers/ by its file's name. */
  provider: string
  representatives: Representative[]
  /** The arbitration clause as the claimants accepted it, quoted in each filing. */
  clause: string
}

/** GET /api/staff/apps/:app/filing: the settings, with the provider's profile. */
export interface FilingSettingsView extends FilingSettings {
  app: string
  appName: string
  profile: ProviderProfile
}
