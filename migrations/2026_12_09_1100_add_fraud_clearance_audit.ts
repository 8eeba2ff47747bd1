import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * fraud_scores.cleared_audit_id: the audit entry that sealed a claim's "Not fraud" (who, when, the note,
 * the score and the reasons seen), so the claim's evidence bundle names it and verify-evidence checks the
 * clearance on the row against the entry the ledger sealed; cleared_codes: the reasons' codes the
 * decider saw, space-separated, as the entry names them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = isPostgresDb(db) ? 'bigint' : 'integer'
  await db.schema.alterTable('fraud_scores').addColumn('cleared_audit_id', id).execute()
  await db.schema.alterTable('fraud_scores').addColumn('cleared_codes', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('fraud_scores').dropColumn('cleared_codes').execute()
  await db.schema.alterTable('fraud_scores').dropColumn('cleared_audit_id').execute()
}
