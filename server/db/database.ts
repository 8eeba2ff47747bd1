import type { ColumnType, Generated, Kysely } from 'kysely'

/** One Step 2 claim, for any app; the app's slug tells them apart. */
export interface ClaimsTable {
  id: Generated<number>
  app: string
  created_at: ColumnType<Date | string, string, never>
  first_name: string
  last_name: string
  email: string
  phone_number: string
  cash_advance_count: number
  membership_months: number
  screenshot_key: string
  screenshot_type: string
  signature: string
}

/** The agreement exactly as the claimant signed it; the database refuses updates. */
export interface AgreementRecordsTable {
  id: Generated<number>
  claim_id: number
  template: string
  template_version: string
  html: string
  sha256: string
  signature: string
  signed_at: ColumnType<Date | string, string, never>
  ip_address: string
  user_agent: string
  consent_text: string
}

/** Fixed-window counters shared by every server process on the database. */
export interface RateLimitsTable {
  key: string
  window_started_at: number
  hits: number
}

export interface Database {
  claims: ClaimsTable
  agreement_records: AgreementRecordsTable
  rate_limits: RateLimitsTable
}

export type Dialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: Dialect
}
