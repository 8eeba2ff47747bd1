import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * payout_events: each PayPal webhook event applied to a payout item, by PayPal's event id. PayPal
 * delivers an event again until it is answered 2xx, and may deliver it twice: an event already here is
 * answered without being applied again (server/payouts/payout-webhook.routes.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('payout_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('item_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('payout_items.id'),
    )
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('received_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payout_events').execute()
}
