import type { Kysely, Transaction } from 'kysely'
import type { AwardSet } from '../../src/api/payouts.ts'
import { AppError } from '../../src/app-error.ts'
import { formatCents } from '../../src/money.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { lockAppPayouts } from './payout-lock.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'

/** A claim's award as read in the transaction that changes it. */
export interface AwardRead {
  claimId: number
  app: string
  grossCents: number
  /** The costs the firm advanced on this claim alone. */
  costsCents: number
  settlementId: number | null
  /** The claim's review status. */
  status: string
}

/** The staff account that changes an award, as the audit log names it. */
interface Actor {
  clientAddress: string
  accountId: number
  actor: string
}

/** The claim's award in `app`, or undefined when it has none. */
export async function readAward(
  trx: Transaction<Database>,
  { claimId, app }: { claimId: number; app: string },
): Promise<AwardRead | undefined> {
  const row = await trx
    .selectFrom('claim_awards')
    .innerJoin('claims', 'claims.id', 'claim_awards.claim_id')
    .select([
      'claim_awards.gross_cents',
      'claim_awards.costs_cents',
      'claim_awards.settlement_id',
      'claims.review_status',
    ])
    .where('claim_awards.claim_id', '=', claimId)
    .where('claim_awards.app', '=', app)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    claimId,
    app,
    grossCents: Number(row.gross_cents),
    costsCents: Number(row.costs_cents),
    settlementId: row.settlement_id === null ? null : Number(row.settlement_id),
    status: row.review_status,
  }
}

/** A payout item of the claim, whatever its state: once there is one, the award's split is fixed. */
export async function payoutItemOf(
  trx: Transaction<Database>,
  claimId: number,
): Promise<{ batch_id: number } | undefined> {
  return trx.selectFrom('payout_items').select('batch_id').where('claim_id', '=', claimId).executeTakeFirst()
}

/**
 * Refuses (422, naming the field) costs advanced on a claim above its award: costs are repaid only out
 * of the recovery, so more than the award could never be charged and is a typing slip.
 */
export function assertCostsWithinAward({
  claimId,
  costsCents,
  grossCents,
  field = '"costs"',
}: {
  claimId: number
  costsCents: number
  grossCents: number
  field?: string
}): void {
  if (costsCents <= grossCents) return
  throw new AppError('VALIDATION_FAILED', {
    status: 422,
    message: `${field} (${formatCents(costsCents)}) is more than claim ${claimId}'s award (${formatCents(grossCents)}): the costs advanced on a claim are at most its award`,
  })
}

/**
 * Sets the costs the firm advanced on an awarded claim in the caller's transaction, while no payout
 * item pays it (a batch computed its split with the costs then on file): at most the award, the audit
 * entry (sealed on the evidence chain) naming the costs before and after. The same costs again change
 * nothing.
 */
export async function changeAwardCosts(
  trx: Transaction<Database>,
  {
    award,
    costsCents,
    evidenceKey,
    by,
    at,
  }: { award: AwardRead; costsCents: number; evidenceKey: Buffer; by: Actor; at: number },
): Promise<AwardSet> {
  const { claimId } = award
  const unchanged = {
    claimId,
    grossCents: award.grossCents,
    costsCents: award.costsCents,
    status: award.status,
    changed: false,
  }
  if (costsCents === award.costsCents) return unchanged
  assertCostsWithinAward({ claimId, costsCents, grossCents: award.grossCents })
  const item = await payoutItemOf(trx, claimId)
  if (item) {
    throw conflict(
      `claim ${claimId}'s award is in payout batch ${item.batch_id} already: the costs advanced on it are set only before it is paid`,
    )
  }
  const updated = await trx
    .updateTable('claim_awards')
    .set({ costs_cents: costsCents, set_at: at, set_by: by.actor })
    .where('claim_id', '=', claimId)
    .where('costs_cents', '=', award.costsCents)
    .executeTakeFirst()
  if (Number(updated.numUpdatedRows) !== 1) {
    throw conflict(`claim ${claimId}'s award was changed meanwhile; reload it and try again`)
  }
  await writeAuditEntry(trx, evidenceKey, {
    ...by,
    app: award.app,
    action: 'award_costs_set',
    detail: `claim ${claimId}: costs advanced ${formatCents(award.costsCents)} → ${formatCents(costsCents)}`,
  })
  return { ...unchanged, costsCents, changed: true }
}

/**
 * Sets the costs the firm advanced on one awarded claim, without touching the award itself (a payments
 * account enters them as well as a decider): see changeAwardCosts. A claim without an award is 409.
 */
export async function setAwardCosts(
  db: Kysely<Database>,
  {
    claimId,
    app,
    costsCents,
    evidenceKey,
    by,
  }: { claimId: number; app: string; costsCents: number; evidenceKey: Buffer; by: Actor },
): Promise<AwardSet> {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      // a build under way takes the costs as it reads them: a change waits for it, then sees its item
      await lockAppPayouts(trx, app)
      const award = await readAward(trx, { claimId, app })
      if (!award) {
        throw conflict(
          `claim ${claimId} has no award: the costs advanced on a claim are entered on its award`,
        )
      }
      return changeAwardCosts(trx, { award, costsCents, evidenceKey, by, at: Date.now() })
    }),
  )
}

function conflict(message: string): AppError {
  return new AppError('CONFLICT', { status: 409, message })
}
