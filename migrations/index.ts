import type { Migration } from 'kysely'
import * as createClaims from './2026_11_22_1000_create_claims.ts'

/** Every migration, by name; names sort in the order they run. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026_11_22_1000_create_claims': createClaims,
}
