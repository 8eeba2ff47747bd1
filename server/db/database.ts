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

export interface AdminCredentialsTable {
  id: number
  /** scrypt$N$r$p$salt$hash, never the password */
  password_hash: string
  created_at: string
}

/** One row per signed-in staff browser; the cookie holds the token, the table only its SHA-256. */
export interface StaffSessionsTable {
  token_hash: string
  created_at: number
  expires_at: number
}

export interface AuditLogTable {
  id: Generated<number>
  at: ColumnType<Date | string, string, never>
  client_address: string
  app: string | null
  action: string
  detail: string | null
}

export interface Database {
  claims: ClaimsTable
  agreement_records: AgreementRecordsTable
  rate_limits: RateLimitsTable
  admin_credentials: AdminCredentialsTable
  staff_sessions: StaffSessionsTable
  audit_log: AuditLogTable
}

export type Dialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: Dialect
}
