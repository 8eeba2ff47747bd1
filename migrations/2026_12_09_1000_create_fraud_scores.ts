import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Fraud scoring (server/fraud/). claims.signals and form_submissions.signals: what the form saw as it
 * was filled in (the browser's device id, the time from its first paint to the send, the fields
 * pasted), as JSON. claims.fraud_score: 1,000 less the deductions, null until scored; fraud_cleared_at:
 * when a decider cleared the claim's hold ("Not fraud"). fraud_scores: one job row per claim, queued by
 * a trigger in the claim's own transaction (the claim's path pays one insert), due again when a
 * related claim arrives; its reasons and the decider's note. fraud_reasons: each claim's deductions,
 * for the filter by reason. fraud_keys: the claim's normalised identity keys (device, network, e-mail,
 * phone, address, name at address), whose matches make the clusters. respondent_flags: claims the
 * company's list names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const id = postgres ? 'bigint' : 'integer'
  const time = postgres ? 'bigint' : 'integer'
  await db.schema.alterTable('claims').addColumn('signals', 'text').execute()
  await db.schema.alterTable('claims').addColumn('fraud_score', 'integer').execute()
  await db.schema.alterTable('claims').addColumn('fraud_cleared_at', time).execute()
  await db.schema.alterTable('form_submissions').addColumn('signals', 'text').execute()
  await sql`CREATE INDEX claims_by_fraud_score ON claims (app, fraud_score, id)`.execute(db)

  await db.schema
    .createTable('fraud_scores')
    .addColumn('claim_id', id, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    // JSON: the deductions (src/fraud-config.ts FraudReason[]), null until scored
    .addColumn('reasons', 'text')
    .addColumn('scored_at', time)
    // "Not fraud": who cleared the hold, why, and the score they saw
    .addColumn('cleared_by', 'text')
    .addColumn('cleared_note', 'text')
    .addColumn('cleared_score', 'integer')
    .addColumn('due_at', time, (col) => col.defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await sql`CREATE INDEX fraud_scores_due ON fraud_scores (due_at) WHERE due_at IS NOT NULL`.execute(db)

  await db.schema
    .createTable('fraud_reasons')
    .addColumn('claim_id', id, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('points', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('fraud_reasons_pk', ['claim_id', 'code'])
    .execute()
  await sql`CREATE INDEX fraud_reasons_by_code ON fraud_reasons (code, claim_id)`.execute(db)

  await db.schema
    .createTable('fraud_keys')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('claim_id', id, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    // epoch ms of the form's send, for the per-hour and per-day counts
    .addColumn('at', time, (col) => col.notNull())
    // the claimant's name as one identity (first and last name, folded), to count other names
    .addColumn('identity', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('fraud_keys_pk', ['kind', 'value', 'claim_id'])
    .execute()
  await sql`CREATE INDEX fraud_keys_by_claim ON fraud_keys (claim_id)`.execute(db)
  // the per-hour and per-day counts of a device or a network
  await sql`CREATE INDEX fraud_keys_by_time ON fraud_keys (kind, value, at)`.execute(db)

  await db.schema
    .createTable('respondent_flags')
    .addColumn('claim_id', id, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    // 'not_customer' or 'duplicate', as the company's list says
    .addColumn('list', 'text', (col) => col.notNull())
    .addColumn('imported_at', time, (col) => col.notNull())
    .addColumn('imported_by', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('respondent_flags_pk', ['claim_id', 'list'])
    .execute()

  if (postgres) {
    await sql`
      CREATE FUNCTION fraud_scores_queue() RETURNS trigger AS $$
      BEGIN
        INSERT INTO fraud_scores (claim_id) SELECT id FROM new_rows;
        RETURN NULL;
      END
      $$ LANGUAGE plpgsql`.execute(db)
    await sql`
      CREATE TRIGGER fraud_scores_queue AFTER INSERT ON claims
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION fraud_scores_queue()`.execute(db)
  } else {
    await sql`
      CREATE TRIGGER fraud_scores_queue AFTER INSERT ON claims
      BEGIN INSERT INTO fraud_scores (claim_id) VALUES (new.id); END`.execute(db)
  }
  // the claims already there are scored too
  await sql`INSERT INTO fraud_scores (claim_id) SELECT id FROM claims`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await sql`DROP TRIGGER fraud_scores_queue${postgres ? sql` ON claims` : sql``}`.execute(db)
  if (postgres) await sql`DROP FUNCTION fraud_scores_queue()`.execute(db)
  await db.schema.dropTable('respondent_flags').execute()
  await db.schema.dropTable('fraud_keys').execute()
  await db.schema.dropTable('fraud_reasons').execute()
  await db.schema.dropTable('fraud_scores').execute()
  await sql`DROP INDEX claims_by_fraud_score`.execute(db)
  await db.schema.alterTable('form_submissions').dropColumn('signals').execute()
  await db.schema.alterTable('claims').dropColumn('fraud_cleared_at').execute()
  await db.schema.alterTable('claims').dropColumn('fraud_score').execute()
  await db.schema.alterTable('claims').dropColumn('signals').execute()
}
