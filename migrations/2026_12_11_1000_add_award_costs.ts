import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Case costs the firm advanced on one claim, beside the costs a payout batch spreads over its claims
 * (server/payouts/payout-split.ts):
 * - claim_awards.costs_cents: the costs entered on the claim's award, never more than the award.
 * - payout_items.claim_costs_cents and batch_costs_cents: the two parts a payment's costs were asked as
 *   (the claim's own, its share of the batch's); costs_cents stays what was charged, both capped at
 *   what the award left after the fee. An item written before had only a batch's share: its charged
 *   costs become that share, so its statement reads as it did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const cents = isPostgresDb(db) ? 'bigint' : 'integer'
  await db.schema
    .alterTable('claim_awards')
    .addColumn('costs_cents', cents, (col) => col.notNull().defaultTo(0))
    .execute()
  for (const column of ['claim_costs_cents', 'batch_costs_cents']) {
    await db.schema
      .alterTable('payout_items')
      .addColumn(column, cents, (col) => col.notNull().defaultTo(0))
      .execute()
  }
  await sql`UPDATE payout_items SET batch_costs_cents = costs_cents`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['batch_costs_cents', 'claim_costs_cents']) {
    await db.schema.alterTable('payout_items').dropColumn(column).execute()
  }
  await db.schema.alterTable('claim_awards').dropColumn('costs_cents').execute()
}
