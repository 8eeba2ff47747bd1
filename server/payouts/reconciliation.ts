import type { Kysely } from 'kysely'
import type { PayoutCostsApart, PayoutFigures, PayoutReconciliation } from '../../src/api/payouts.ts'
import type { Database, TrustEntryKind } from '../db/database.ts'
import { chunks } from '../db/id-chunks.ts'

/** Item statuses whose money left the trust account (and, for the unpaid ones, came back). */
const SENT_STATUSES = ['sent', 'paid', 'failed', 'unclaimed', 'returned'] as const
const CAME_BACK_STATUSES = ['failed', 'unclaimed', 'returned'] as const

/**
 * The trust account's figures for one batch or one app, twice: summed from trust_entries, and computed
 * apart from them from the awards (claim_awards) and the items (payout_items). Received is the awards
 * of the claims in scope; fee and withholding those of the items sent (a fallback's were taken with the
 * item it replaces); costs each such item's claim's costs advanced (its award's) plus its share of its
 * batch's, capped at what its award left after the fee; net paid out every sent item's net; returned the
 * net of every item that did not reach its claimant; held what is left: awards not yet in a sent item,
 * and returns not yet sent again. Each difference must be 0 cents: a changed entry, an award's costs
 * changed after its payment, or an item moved without its entries, shows. `costs` tells the costs
 * charged apart: advanced on claims, shared by batches, and what the awards could not cover.
 */
export async function reconcilePayouts(
  db: Kysely<Database>,
  scope: { app: string } | { batchId: number },
): Promise<PayoutReconciliation> {
  const claimIds = await claimsInScope(db, scope)
  const trust = await trustFigures(db, scope, claimIds)
  const { figures: independent, costs } = await independentFigures(db, scope, claimIds)
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
    costs,
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
): Promise<{ figures: PayoutFigures; costs: PayoutCostsApart }> {
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
    .leftJoin('claim_awards', 'claim_awards.claim_id', 'payout_items.claim_id')
    .select([
      'payout_items.status',
      'payout_items.replaces_item_id',
      'payout_items.gross_cents',
      'payout_items.fee_cents',
      'payout_items.costs_cents',
      'payout_items.claim_costs_cents',
      'payout_items.batch_costs_cents',
      'payout_items.withholding_cents',
      'payout_items.net_cents',
      'claim_awards.costs_cents as award_costs_cents',
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
  // the costs as the awards say they were advanced, capped as the split caps them
  const costsCents = sum(
    (item) =>
      Math.min(
        Number(item.award_costs_cents ?? 0) + Number(item.batch_costs_cents),
        Number(item.gross_cents) - Number(item.fee_cents),
      ),
    originals,
  )
  const advancedOnClaimsCents = sum((item) => item.claim_costs_cents, originals)
  const sharedCents = sum((item) => item.batch_costs_cents, originals)
  return {
    figures: figures({
      receivedCents,
      feeCents: sum((item) => item.fee_cents, originals),
      costsCents,
      withholdingCents: sum((item) => item.withholding_cents, originals),
      netPaidCents: sum((item) => item.net_cents),
      returnedCents: sum(
        (item) => item.net_cents,
        items.filter((item) => (CAME_BACK_STATUSES as readonly string[]).includes(item.status)),
      ),
    }),
    costs: {
      advancedOnClaimsCents,
      sharedCents,
      waivedCents: advancedOnClaimsCents + sharedCents - sum((item) => item.costs_cents, originals),
    },
  }
}

function figures(parts: Omit<PayoutFigures, 'heldCents'>): PayoutFigures {
  const out = parts.feeCents + parts.costsCents + parts.withholdingCents + parts.netPaidCents
  return { ...parts, heldCents: parts.receivedCents - out + parts.returnedCents }
}
