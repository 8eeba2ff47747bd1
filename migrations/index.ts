import type { Migration } from 'kysely'
import * as createClaims from './2026_11_22_1000_create_claims.ts'
import * as createAgreementRecords from './2026_11_22_1100_create_agreement_records.ts'

/** Every migration, by name; names sort in the order they run. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_1000_create_claims': createClaims,
  '2026_11_22_1100_create_agreement_records': createAgreementRecords,
}
