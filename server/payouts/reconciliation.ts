import type { Kysely } from 'kysely'
import type { PayoutFigures, PayoutReconciliation } from '../../src/api/payouts.ts'
import type { Database, TrustEntryKind } from '../db/database.ts'
import { chunks } from '../filing/batch-claims.ts'

/** Item statuses whose money left the trust account (and, for the unpaid ones, came back). */
const SENT_STATUSES = ['sent', 'paid', 'failed', 'unclaimed', 'returned'] as const
const CAME_BACK_STATUSES = ['failed', 'unclaimed', 'returned'] as const

/**
 * The trust account's figures for one batch or one app, twice: summed from trust_entries, and computed
 * apart from them from the awards (claim_awards) and the items (payout_items). Received is the awards
 * of the claims in scope; fee, costs and withholding those of the items sent (a fallback's were taken
 * with the item it replaces); net paid out every sent item's net; returned the net of every item that
 * did not reach its claimant; held what is left: awards not yet in a sent item, and returns not yet sent
 * again. Each difference must be 0 cents: a changed entry, or an item moved without its entries, shows.
 */
export async function reconcilePayouts(
  db: Kysely<Database>,
  scope: { app: string } | { batchId: number },
): Promise<PayoutReconciliation> {
  const claimIds = await claimsInScope(db, scope)
  const trust = await trustFigures(db, scope, claimIds)
  const independent = await independentFigures(db, scope, claimIds)
  const differences = Object.fromEntries(
    Object.keys(trust).map((key) => [
      key,
      trust[key as keyof PayoutFigures] - independent[key as keyof PayoutFigures],
    ]),
  ) as unknown as PayoutFigures
  return {
    fromTrustEntries: trust,
    fromAwardsAndItems: independent,
    differences,
    differenceCents: Object.values(differences).reduce((sum, cents) => sum + Math.abs(cents), 0),
  }
}

/** An app's claims with an award, or a batch's claims. */
async function claimsInScope(db: Kysely<Database>, scope: { app: string } | { batchId: number }) {
  const rows =
    'app' in scope
      ? await db.selectFrom('claim_awards').select('claim_id').where('app', '=', scope.app).execute()
      : await db
          .selectFrom('payout_items')
          .select('claim_id')
          .distinct()
          .where('batch_id', '=', scope.batchId)
          .execute()
  return rows.map((row) => Number(row.claim_id))
}

async function trustFigures(
  db: Kysely<Database>,
  scope: { app: string } | { batchId: number },
  claimIds: readonly number[],
): Promise<PayoutFigures> {
  const sums = new Map<TrustEntryKind, number>()
  const add = (kind: TrustEntryKind, cents: unknown) =>
    sums.set(kind, (sums.get(kind) ?? 0) + Number(cents ?? 0))
  // received: the money in for the claims in scope, whichever batch pays it
  for (const ids of chunks(claimIds)) {
    const row = await db
      .selectFrom('trust_entries')
      .select((eb) => eb.fn.sum<string | number | null>('amount_cents').as('cents'))
      .where('kind', '=', 'received')
      .where('claim_id', 'in', ids)
      .executeTakeFirstOrThrow()
    add('received', row.cents)
  }
  const rows = await db
    .selectFrom('trust_entries')
    .select(['kind', (eb) => eb.fn.sum<string | number | null>('amount_cents').as('cents')])
    .where('kind', '!=', 'received')
    .$call((query) =>
      'app' in scope ? query.where('app', '=', scope.app) : query.where('batch_id', '=', scope.batchId),
    )
    .groupBy('kind')
    .execute()
  for (const row of rows) add(row.kind, row.cents)
  const of = (kind: TrustEntryKind) => sums.get(kind) ?? 0
  return figures({
    receivedCents: of('received'),
    feeCents: -of('fee'),
    costsCents: -of('costs'),
    withholdingCents: -of('withholding'),
    netPaidCents: -of('net'),
    returnedCents: of('returned'),
  })
}

async function independentFigures(
  db: Kysely<Database>,
  scope: { app: string } | { batchId: number },
  claimIds: readonly number[],
): Promise<PayoutFigures> {
  let receivedCents = 0
  for (const ids of chunks(claimIds)) {
    const row = await db
      .selectFrom('claim_awards')
      .select((eb) => eb.fn.sum<string | number | null>('gross_cents').as('cents'))
      .where('claim_id', 'in', ids)
      .executeTakeFirstOrThrow()
    receivedCents += Number(row.cents ?? 0)
  }
  const items = await db
    .selectFrom('payout_items')
    .innerJoin('payout_batches', 'payout_batches.id', 'payout_items.batch_id')
    .select([
      'payout_items.status',
      'payout_items.replaces_item_id',
      'payout_items.fee_cents',
      'payout_items.costs_cents',
      'payout_items.withholding_cents',
      'payout_items.net_cents',
    ])
    .$call((query) =>
      'app' in scope
        ? query.where('payout_batches.app', '=', scope.app)
        : query.where('payout_items.batch_id', '=', scope.batchId),
    )
    .where('payout_items.status', 'in', SENT_STATUSES)
    .execute()
  const sum = (pick: (item: (typeof items)[number]) => unknown, only = items) =>
    only.reduce((total, item) => total + Number(pick(item)), 0)
  const originals = items.filter((item) => item.replaces_item_id === null)
  return figures({
    receivedCents,
    feeCents: sum((item) => item.fee_cents, originals),
    costsCents: sum((item) => item.costs_cents, originals),
    withholdingCents: sum((item) => item.withholding_cents, originals),
    netPaidCents: sum((item) => item.net_cents),
    returnedCents: sum(
      (item) => item.net_cents,
      items.filter((item) => (CAME_BACK_STATUSES as readonly string[]).includes(item.status)),
    ),
  })
}

function figures(parts: Omit<PayoutFigures, 'heldCents'>): PayoutFigures {
  const out = parts.feeCents + parts.costsCents + parts.withholdingCents + parts.netPaidCents
  return { ...parts, heldCents: parts.receivedCents - out + parts.returnedCents }
}
