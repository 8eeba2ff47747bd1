import firm from '../firm.json' with { type: 'json' }

/**
 * The firm's constants (name, attorney, fees, contact mailbox, retention, time zone), kept once in firm.json
 * and read by every template and page from here.
 * @example FIRM_SETTINGS.contactEmail // 'claims@example.com'
 */
export interface FirmSettings {
  firmName: string
  attorneyName: string
  attorneyLicenses: string[]
  contactEmail: string
  /** Printed at the foot of every e-mail to claimants (a placeholder until the firm sets its own). */
  postalAddress: string
  contingencyPercent: number
  administrationFeeUsd: string
  maxRecoveryPerAppUsd: string
  arbitrationCity: string
  filingDeadlineWarningDays: number
  retentionYears: number
  /** The IANA zone the firm's staff read times in (the CSV exports' dates), e.g. 'America/Los_Angeles'. */
  timeZone: string
}

export const FIRM_SETTINGS: Readonly<FirmSettings> = Object.freeze(firm)
