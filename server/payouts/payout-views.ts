import type { Kysely } from 'kysely'
import type { PayoutBatchView, PayoutItemPage, UncashedCheck } from '../../src/api/payouts.ts'
import { DAY_MS } from '../../src/durations.ts'
import { mask, maskEmail, maskName, PAYOUT_METHODS } from '../../src/payout-details.ts'
import type { Database } from '../db/database.ts'
import { chunks } from '../db/id-chunks.ts'
import type { ListPage } from '../platform/list-query.ts'
import { sumPayoutItems, totalsOf } from './payout-totals.ts'

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString())

/** An app's payout batches, newest first, with their maker, checker, totals and items by status. */
export async function listPayoutBatches(db: Kysely<Database>, app: string): Promise<PayoutBatchView[]> {
  const batches = await db
    .selectFrom('payout_batches as batch')
    .innerJoin('staff_accounts as maker', 'maker.id', 'batch.built_by')
    .leftJoin('staff_accounts as checker', 'checker.id', 'batch.approved_by')
    .selectAll('batch')
    .select(['maker.email as maker', 'checker.email as checker'])
    .where('batch.app', '=', app)
    .orderBy('batch.id', 'desc')
    .execute()
  if (batches.length === 0) return []
  const batchIds = batches.map((batch) => Number(batch.id))
  // a fallback repeats the split of the item it replaces: counted once
  const totals = await sumPayoutItems(db, batchIds, { originalsOnly: true })
  const itemStatuses = new Map<number, Record<string, number>>()
  const methods = new Map<number, Set<string>>()
  for (const ids of chunks(batchIds)) {
    const counts = await db
      .selectFrom('payout_items')
      .select((eb) => ['batch_id', 'status', 'method', eb.fn.countAll<number | string>().as('count')])
      .where('batch_id', 'in', ids)
      .groupBy(['batch_id', 'status', 'method'])
      .execute()
    for (const { batch_id: batchId, status, method, count } of counts) {
      const own = itemStatuses.get(Number(batchId)) ?? {}
      own[status] = (own[status] ?? 0) + Number(count)
      itemStatuses.set(Number(batchId), own)
      methods.set(Number(batchId), (methods.get(Number(batchId)) ?? new Set()).add(method))
    }
  }
  return batches.map((batch) => ({
    id: Number(batch.id),
    status: batch.status,
    costsCents: Number(batch.costs_cents),
    builtBy: batch.maker,
    builtAt: iso(batch.built_at)!,
    approvedBy: batch.checker,
    approvedAt: iso(batch.approved_at),
    sentAt: iso(batch.sent_at),
    totals: totals.get(Number(batch.id)) ?? totalsOf([]),
    itemStatuses: itemStatuses.get(Number(batch.id)) ?? {},
    methods: PAYOUT_METHODS.filter((method) => methods.get(Number(batch.id))?.has(method)),
  }))
}

/**
 * A page of a batch's items in the order they were made, each claim's split and status; receivers,
 * accounts and TINs masked. A batch may hold PayPal's 15,000: the page is read by the batch's index.
 */
export async function payoutItemPage(
  db: Kysely<Database>,
  { batchId, page, pageSize }: { batchId: number } & ListPage,
): Promise<PayoutItemPage> {
  const { count } = await db
    .selectFrom('payout_items')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('batch_id', '=', batchId)
    .executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom('payout_items as item')
    .innerJoin('claims', 'claims.id', 'item.claim_id')
    .leftJoin('payout_choices as choice', 'choice.claim_id', 'item.claim_id')
    .leftJoin('tax_forms as w9', 'w9.claim_id', 'item.claim_id')
    .selectAll('item')
    .select([
      'claims.first_name',
      'claims.last_name',
      'choice.receiver',
      'choice.receiver_type',
      'choice.account_last4',
      'w9.tin_last4',
    ])
    .where('item.batch_id', '=', batchId)
    .orderBy('item.id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()
  const items = rows.map((row) => ({
    id: Number(row.id),
    claimId: Number(row.claim_id),
    claimantName: `${row.first_name} ${row.last_name}`,
    method: row.method,
    grossCents: Number(row.gross_cents),
    feePercent: row.fee_percent,
    feeCents: Number(row.fee_cents),
    costsCents: Number(row.costs_cents),
    withholdingCents: Number(row.withholding_cents),
    netCents: Number(row.net_cents),
    status: row.status,
    receiver:
      (row.method === 'paypal' || row.method === 'venmo') && row.receiver
        ? row.receiver_type === 'email'
          ? maskEmail(row.receiver)
          : mask(row.receiver)
        : null,
    account: row.method === 'ach' && row.account_last4 ? mask(`0000${row.account_last4}`) : null,
    tin: row.tin_last4 ? mask(`0000${row.tin_last4}`) : null,
    checkNumber: row.check_number === null ? null : Number(row.check_number),
    failure: row.failure,
    replacesItemId: row.replaces_item_id === null ? null : Number(row.replaces_item_id),
  }))
  return { items, page, pageSize, count: Number(count) }
}

/**
 * An app's checks sent more than `days` ago (the app's uncashedCheckDays) and not marked paid (cashed),
 * the oldest first, each with its payee masked: the W-9's legal name, else the claim's.
 */
export async function uncashedChecks(
  db: Kysely<Database>,
  { app, days, now = Date.now() }: { app: string; days: number; now?: number },
): Promise<UncashedCheck[]> {
  const rows = await db
    .selectFrom('payout_items as item')
    .innerJoin('payout_batches as batch', 'batch.id', 'item.batch_id')
    .innerJoin('claims', 'claims.id', 'item.claim_id')
    .leftJoin('tax_forms as w9', 'w9.claim_id', 'item.claim_id')
    .select([
      'item.id',
      'item.batch_id',
      'item.claim_id',
      'item.check_number',
      'item.net_cents',
      'item.updated_at',
      'w9.legal_name',
      'claims.first_name',
      'claims.last_name',
    ])
    .where('batch.app', '=', app)
    .where('item.method', '=', 'check')
    .where('item.status', '=', 'sent')
    .where('item.check_number', 'is not', null)
    .where('item.updated_at', '<', now - days * DAY_MS)
    .orderBy('item.updated_at')
    .orderBy('item.id')
    .execute()
  return rows.map((row) => ({
    itemId: Number(row.id),
    batchId: Number(row.batch_id),
    claimId: Number(row.claim_id),
    payee: maskName(row.legal_name ?? `${row.first_name} ${row.last_name}`),
    checkNumber: Number(row.check_number),
    netCents: Number(row.net_cents),
    sentAt: iso(Number(row.updated_at))!,
    daysOut: Math.floor((now - Number(row.updated_at)) / DAY_MS),
  }))
}
