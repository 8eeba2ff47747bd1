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

export interface Database {
  claims: ClaimsTable
}

export type Dialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: Dialect
}
