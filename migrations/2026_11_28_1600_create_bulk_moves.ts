import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Bulk moves of claims (server/review/bulk-moves.ts). bulk_moves: one row a job, with the move (status,
 * reason, note), who asked for it, its progress (the last claim id done, moved, skipped) and its lease:
 * the server process running it and until when, so that two processes never run one job and a job
 * whose process died is taken up again. bulk_move_claims: the claims the job was started on, fixed at
 * its start, removed once it is done (each claim's move keeps its own record in claim_moves).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  await db.schema
    .createTable('bulk_moves')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('to_status', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('reason_text', 'text')
    .addColumn('note', 'text')
    .addColumn('account_id', 'integer', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('client_address', 'text', (col) => col.notNull())
    // the site's origin as the reviewer reached it: a deficiency notice's links point there
    .addColumn('link_origin', 'text', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    // queued, running, done or failed
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('total', 'integer', (col) => col.notNull())
    .addColumn('moved', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('after_id', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .addColumn('finished_at', time)
    .execute()
  // the loop's question: which job is queued, or running under a lease that ran out
  await sql`CREATE INDEX bulk_moves_open ON bulk_moves (id) WHERE status IN ('queued', 'running')`.execute(db)
  await db.schema
    .createTable('bulk_move_claims')
    .addColumn('bulk_move_id', 'bigint', (col) => col.notNull())
    .addColumn('claim_id', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('bulk_move_claims_pk', ['bulk_move_id', 'claim_id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_move_claims').execute()
  await db.schema.dropTable('bulk_moves').execute()
}
