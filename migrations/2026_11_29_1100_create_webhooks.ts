import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Webhooks (server/webhooks/). webhook_endpoints: the admins' receivers, each with its events (a JSON
 * array), whether the body carries the claimant's details, whether it is active, and the salt its secret
 * is derived from (webhook-secret.ts). webhook_deliveries: the outbox, one row per event and endpoint,
 * with its state, attempts, last answer and next attempt, and the lease of the process sending it. No
 * foreign key to the endpoints: an event is queued inside a claim's move, which must not fail because an
 * admin deleted an endpoint at that moment; the sender drops a delivery whose endpoint is gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  await db.schema
    .createTable('webhook_endpoints')
    // never reused (SQLite's AUTOINCREMENT): a deleted endpoint's id must not name a new one
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'text', (col) => col.notNull())
    .addColumn('include_details', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('secret_salt', 'text', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('endpoint_id', 'bigint', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    // the body's data without personal details, which are read when it is sent
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    // pending, delivered or failed
    .addColumn('status', 'text', (col) => col.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time)
    .addColumn('give_up_at', time, (col) => col.notNull())
    .addColumn('last_attempt_at', time)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .execute()
  // the sender's question: which pending delivery is due
  await sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(
    db,
  )
  // an endpoint's log, newest first
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('webhook_endpoints').execute()
}
