import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/** Every table whose rows are background work (server/jobs/), with the lease columns it had before. */
const JOB_TABLES = [
  { table: 'agreement_copies', has: ['due_at', 'attempts'] },
  { table: 'screenshot_checks', has: ['due_at', 'attempts'] },
  { table: 'bulk_moves', has: ['lease_owner', 'lease_until'] },
  { table: 'filing_batches', has: ['lease_owner', 'lease_until'] },
  { table: 'webhook_deliveries', has: ['lease_owner', 'lease_until', 'attempts'] },
  { table: 'claim_cures', has: [] },
  { table: 'claimant_journeys', has: [] },
] as const

/** The tables whose due rows had no index on their due time. */
const DUE_INDEXED = ['bulk_moves', 'filing_batches', 'webhook_deliveries', 'claim_cures', 'claimant_journeys']

type LeaseColumn = 'lease_owner' | 'lease_until' | 'attempts' | 'due_at'

/**
 * One set of lease columns on every job table (server/jobs/lease.ts): lease_owner and lease_until (the
 * process holding a row, and until when), attempts (takes since the row last moved on) and due_at (when
 * the row is due next; null: nothing to do). A row inserted without due_at is due at once (its default
 * 0), so the code that queues work need not know about the columns. Queued work carries over: webhook
 * deliveries' next_attempt_at and journeys' next_due_at become due_at, and open bulk moves, batches
 * building and open cure periods are due at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const time = isPostgresDb(db) ? 'bigint' : 'integer'
  for (const { table, has } of JOB_TABLES) {
    const missing = (['lease_owner', 'lease_until', 'attempts', 'due_at'] as const).filter(
      (column: LeaseColumn) => !(has as readonly LeaseColumn[]).includes(column),
    )
    for (const column of missing) {
      await db.schema
        .alterTable(table)
        .addColumn(
          column,
          column === 'lease_owner' ? 'text' : column === 'attempts' ? 'integer' : time,
          (col) =>
            column === 'attempts' ? col.notNull().defaultTo(0) : column === 'due_at' ? col.defaultTo(0) : col,
        )
        .execute()
    }
  }
  await sql`UPDATE bulk_moves SET due_at = NULL WHERE status NOT IN ('queued', 'running')`.execute(db)
  await sql`UPDATE filing_batches SET due_at = NULL WHERE status <> 'building'`.execute(db)
  await sql`UPDATE claim_cures SET due_at = NULL WHERE ended_at IS NOT NULL`.execute(db)
  await sql`UPDATE webhook_deliveries SET due_at = next_attempt_at`.execute(db)
  await sql`UPDATE webhook_deliveries SET due_at = NULL WHERE status <> 'pending'`.execute(db)
  await sql`UPDATE claimant_journeys SET due_at = next_due_at`.execute(db)
  await sql`DROP INDEX webhook_deliveries_due`.execute(db)
  await db.schema.alterTable('webhook_deliveries').dropColumn('next_attempt_at').execute()
  await sql`DROP INDEX claimant_journeys_due`.execute(db)
  await db.schema.alterTable('claimant_journeys').dropColumn('next_due_at').execute()
  // the runner's question of each table: which rows are due
  for (const table of DUE_INDEXED) {
    await sql`CREATE INDEX ${sql.raw(`${table}_due`)} ON ${sql.table(table)} (due_at) WHERE due_at IS NOT NULL`.execute(
      db,
    )
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const time = isPostgresDb(db) ? 'bigint' : 'integer'
  for (const table of DUE_INDEXED) {
    await sql`DROP INDEX ${sql.raw(`${table}_due`)}`.execute(db)
  }
  await db.schema.alterTable('webhook_deliveries').addColumn('next_attempt_at', time).execute()
  await sql`UPDATE webhook_deliveries SET next_attempt_at = due_at`.execute(db)
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(
    db,
  )
  await db.schema.alterTable('claimant_journeys').addColumn('next_due_at', time).execute()
  await sql`UPDATE claimant_journeys SET next_due_at = due_at`.execute(db)
  await sql`CREATE INDEX claimant_journeys_due ON claimant_journeys (next_due_at) WHERE next_due_at IS NOT NULL`.execute(
    db,
  )
  for (const { table, has } of JOB_TABLES) {
    for (const column of ['lease_owner', 'lease_until', 'attempts', 'due_at'] as const) {
      if (!(has as readonly LeaseColumn[]).includes(column)) {
        await db.schema.alterTable(table).dropColumn(column).execute()
      }
    }
  }
}
