import type { Kysely, Transaction } from 'kysely'
import type { PayoutTotals } from '../../src/api/payouts.ts'
import type { Database } from '../db/database.ts'
import { chunks } from '../db/id-chunks.ts'

/** Count and sums of items in integer cents. */
export function totalsOf(
  items: readonly {
    gross_cents: number
    fee_cents: number
    costs_cents: number
    withholding_cents: number
    net_cents: number
  }[],
): PayoutTotals {
  const sum = (pick: (item: (typeof items)[number]) => number) =>
    items.reduce((total, item) => total + Number(pick(item)), 0)
  return {
    count: items.length,
    grossCents: sum((item) => item.gross_cents),
    feeCents: sum((item) => item.fee_cents),
    costsCents: sum((item) => item.costs_cents),
    withholdingCents: sum((item) => item.withholding_cents),
    netCents: sum((item) => item.net_cents),
  }
}

/**
 * The count and sums of each batch's items (with `originalsOnly`, leaving out fallbacks, which repeat
 * the split of the item they replace), summed by the database: a batch's items are read only to be
 * added up, and there may be 15,000 of them. A batch without items is not in the map.
 */
export async function sumPayoutItems(
  db: Kysely<Database> | Transaction<Database>,
  batchIds: readonly number[],
  { originalsOnly = false }: { originalsOnly?: boolean } = {},
): Promise<Map<number, PayoutTotals>> {
  const totals = new Map<number, PayoutTotals>()
  for (const ids of chunks(batchIds)) {
    const rows = await db
      .selectFrom('payout_items')
      .select((eb) => [
        'batch_id',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string>('gross_cents').as('gross'),
        eb.fn.sum<number | string>('fee_cents').as('fee'),
        eb.fn.sum<number | string>('costs_cents').as('costs'),
        eb.fn.sum<number | string>('withholding_cents').as('withholding'),
        eb.fn.sum<number | string>('net_cents').as('net'),
      ])
      .where('batch_id', 'in', ids)
      .$if(originalsOnly, (query) => query.where('replaces_item_id', 'is', null))
      .groupBy('batch_id')
      .execute()
    for (const row of rows) {
      totals.set(Number(row.batch_id), {
        count: Number(row.count),
        grossCents: Number(row.gross),
        feeCents: Number(row.fee),
        costsCents: Number(row.costs),
        withholdingCents: Number(row.withholding),
        netCents: Number(row.net),
      })
    }
  }
  return totals
}
