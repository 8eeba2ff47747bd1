/**
 * What a provider's spreadsheet column can take from a claim: the only names a profile may use, so a
 * typo in a profile stops the start-up instead of leaving a column empty in a filing.
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

/** forms/providers/<name>.json: how an arbitration provider takes a mass filing. */
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
  fees: { note: string; perBatch: number; tiers: FeeTier[] }
}

/** The respondent a notice is sent to and an arbitration is filed against. */
export interface Respondent {
  legalName: string
  /** The notice address's lines, as printed on the envelope. */
  noticeAddress: string[]
}

/**
 * An app's filing settings: forms/base/filing.json with the app's own "filing" laid over it. An app
 * without a respondent cannot be noticed or filed yet.
 */
export interface FilingSettings {
  respondent?: Respondent
  /** Template names in notices/ and demands/ (without .hbs). */
  noticeTemplate: string
  demandTemplate: string
  /** Days after the notice is sent before a demand may be filed. */
  waitingPeriodDays: number
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
