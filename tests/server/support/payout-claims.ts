import type { Kysely } from 'kysely'
import type { Database } from '../../../server/db/database.ts'

/**
 * Awards written straight into the tables, for the claimant's payout tests: the award import and the
 * settlement allocation write them in the product. A claim "has an award" once its claim_awards row exists.
 */
export async function giveAward(
  db: Kysely<Database>,
  {
    claimId,
    app,
    grossCents,
    costsCents = 0,
    settlementId = null,
  }: {
    claimId: number
    app: string
    grossCents: number
    /** Costs the firm advanced on the claim. */
    costsCents?: number
    settlementId?: number | null
  },
): Promise<void> {
  await db
    .insertInto('claim_awards')
    .values({
      claim_id: claimId,
      app,
      gross_cents: grossCents,
      costs_cents: costsCents,
      source: settlementId === null ? 'entered' : 'settlement',
      settlement_id: settlementId,
      set_at: Date.now(),
      set_by: 'admin@firm.test',
    })
    .execute()
}

/** A settlement shared by `rule`, with an award of each share to its claims; gives its id. */
export async function addSettlement(
  db: Kysely<Database>,
  {
    app,
    name,
    rule = 'equal',
    shares,
  }: {
    app: string
    name: string
    rule?: 'equal' | 'cashAdvanceCount'
    shares: { claimId: number; grossCents: number }[]
  },
): Promise<number> {
  const { id } = await db
    .insertInto('settlements')
    .values({
      app,
      name,
      rule,
      total_cents: shares.reduce((sum, share) => sum + share.grossCents, 0),
      created_at: Date.now(),
      created_by: 'admin@firm.test',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const share of shares) await giveAward(db, { ...share, app, settlementId: Number(id) })
  return Number(id)
}

/** A built payout batch holding one item for the claim: its payment choice and W-9 are then fixed. */
export async function addPayoutItem(
  db: Kysely<Database>,
  { claimId, app }: { claimId: number; app: string },
): Promise<void> {
  const builder = await db.selectFrom('staff_accounts').select('id').executeTakeFirstOrThrow()
  const now = Date.now()
  const batch = await db
    .insertInto('payout_batches')
    .values({ app, status: 'built', costs_cents: 1_000, built_by: Number(builder.id), built_at: now })
    .returning('id')
    .executeTakeFirstOrThrow()
  await db
    .insertInto('payout_items')
    .values({
      batch_id: Number(batch.id),
      claim_id: claimId,
      method: 'venmo',
      gross_cents: 100_000,
      fee_percent: '40',
      fee_cents: 40_000,
      costs_cents: 1_000,
      claim_costs_cents: 600,
      batch_costs_cents: 400,
      withholding_cents: 0,
      net_cents: 59_000,
      status: 'pending',
      updated_at: now,
    })
    .execute()
}
