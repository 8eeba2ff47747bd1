import type { Kysely, Transaction } from 'kysely'
import type { AwardSet, AwardSource } from '../../src/api/payouts.ts'
import { AppError } from '../../src/app-error.ts'
import { formatCents } from '../../src/money.ts'
import type { ReviewConfig } from '../../src/review-config.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { recordMove } from '../lifecycle/move-claim.ts'
import { assertCostsWithinAward, changeAwardCosts, payoutItemOf, readAward } from './award-costs.ts'
import { lockAppPayouts } from './payout-lock.ts'
import { recordTrustEntries } from './trust-ledger.ts'

/** The staff account that sets an award, as the audit log and the claim's moves name it. */
export interface AwardActor {
  clientAddress: string
  accountId: number
  actor: string
}

/** A claim about to be awarded, as read in the award's transaction. */
export interface ClaimToAward {
  id: number
  status: string
  version: number
  cashAdvanceCount: number
}

// a statement's IN list stays far below every dialect's parameter limit
const ID_CHUNK = 1000

/**
 * The claims of `claimIds` that may be awarded (in the app, in its filed status), read in the award's
 * transaction, and why each other one may not: not the app's, awarded already, or in another status.
 */
export async function readClaimsToAward(
  trx: Transaction<Database>,
  { app, review, claimIds }: { app: string; review: ReviewConfig; claimIds: readonly number[] },
): Promise<{ claims: Map<number, ClaimToAward>; problems: Map<number, string> }> {
  const claims = new Map<number, ClaimToAward>()
  const problems = new Map<number, string>()
  for (let start = 0; start < claimIds.length; start += ID_CHUNK) {
    const rows = await trx
      .selectFrom('claims')
      .leftJoin('claim_awards as award', 'award.claim_id', 'claims.id')
      .select([
        'claims.id',
        'claims.app',
        'claims.review_status',
        'claims.review_version',
        'claims.cash_advance_count',
        'award.gross_cents',
      ])
      .where('claims.id', 'in', claimIds.slice(start, start + ID_CHUNK))
      .execute()
    for (const row of rows) {
      const id = Number(row.id)
      if (row.app !== app) continue
      if (row.review_status === review.roles.filed) {
        claims.set(id, {
          id,
          status: row.review_status,
          version: Number(row.review_version),
          cashAdvanceCount: Number(row.cash_advance_count),
        })
      } else if (row.gross_cents !== null) {
        problems.set(id, `claim ${id} is awarded already (${formatCents(Number(row.gross_cents))})`)
      } else {
        problems.set(id, `claim ${id} is ${row.review_status}, not ${review.roles.filed}`)
      }
    }
  }
  for (const id of claimIds) {
    if (!claims.has(id) && !problems.has(id)) problems.set(id, `claim ${id} is not a claim of ${app}`)
  }
  return { claims, problems }
}

/**
 * Awards filed claims in the caller's transaction: each claim moved to the app's awarded status (the
 * server's move, naming the account that set the award), its claim_awards row, and the award received
 * into the trust account. The caller has read the claims with readClaimsToAward in the same transaction;
 * a claim moved since is refused with 409 by its move, and the whole transaction with it.
 */
export async function writeAwards(
  trx: Transaction<Database>,
  {
    app,
    review,
    evidenceKey,
    by,
    awards,
    source,
    settlementId = null,
    at = Date.now(),
  }: {
    app: string
    review: ReviewConfig
    evidenceKey: Buffer
    by: AwardActor
    /** Each claim's award and the costs the firm advanced on it (0 when left out). */
    awards: readonly { claim: ClaimToAward; cents: number; costsCents?: number }[]
    source: AwardSource
    settlementId?: number | null
    at?: number
  },
): Promise<void> {
  // the move first: a claim another award took meanwhile is refused by its version, not by the key
  for (const { claim } of awards) {
    await recordMove(trx, {
      evidenceKey,
      review,
      claim: { id: claim.id, app, status: claim.status, version: claim.version },
      to: review.roles.awarded,
      by,
      mover: 'system',
      at,
    })
  }
  for (let start = 0; start < awards.length; start += ID_CHUNK) {
    await trx
      .insertInto('claim_awards')
      .values(
        awards.slice(start, start + ID_CHUNK).map(({ claim, cents, costsCents = 0 }) => ({
          claim_id: claim.id,
          app,
          gross_cents: cents,
          costs_cents: costsCents,
          source,
          settlement_id: settlementId,
          set_at: at,
          set_by: by.actor,
        })),
      )
      .execute()
  }
  await recordTrustEntries(
    trx,
    evidenceKey,
    awards.map(({ claim, cents }) => ({
      app,
      batch_id: null,
      claim_id: claim.id,
      kind: 'received',
      amount_cents: cents,
      at,
    })),
  )
}

/**
 * Sets one claim's award as staff typed it, with the costs the firm advanced on the claim (left out: 0
 * on a new award, unchanged on an existing one; never more than the award, else 422). A filed claim is
 * awarded (see writeAwards). A claim awarded already is corrected, upward only and only while no payout
 * item pays it: its award was recorded as received into the trust account, and the trust ledger has no
 * entry that takes money out other than a payment (TRUST_SIGN), so a raise records the difference
 * received and a lower amount is refused rather than leave the account's sum above what it holds. A
 * settlement's share is not corrected on its own (the shares would no longer add up to the
 * settlement), though its costs are (setAwardCosts). The same amounts again change nothing. The audit
 * entry, sealed on the evidence chain, names the award and the costs.
 */
export async function setAward(
  db: Kysely<Database>,
  {
    claimId,
    app,
    cents,
    costsCents,
    review,
    evidenceKey,
    by,
  }: {
    claimId: number
    app: string
    cents: number
    costsCents?: number
    review: ReviewConfig
    evidenceKey: Buffer
    by: AwardActor
  },
): Promise<AwardSet> {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      // a build under way takes the award as it reads it: a correction waits for it, then sees its item
      await lockAppPayouts(trx, app)
      const at = Date.now()
      const { claims, problems } = await readClaimsToAward(trx, { app, review, claimIds: [claimId] })
      const claim = claims.get(claimId)
      if (claim) {
        const costs = costsCents ?? 0
        assertCostsWithinAward({ claimId, costsCents: costs, grossCents: cents })
        await writeAwards(trx, {
          app,
          review,
          evidenceKey,
          by,
          awards: [{ claim, cents, costsCents: costs }],
          source: 'entered',
          at,
        })
        await writeAuditEntry(trx, evidenceKey, {
          ...by,
          app,
          action: 'award_entered',
          detail: `claim ${claimId}: 1 award, ${formatCents(cents)} in all${costs > 0 ? `, ${formatCents(costs)} costs advanced` : ''}`,
        })
        return { claimId, grossCents: cents, costsCents: costs, status: review.roles.awarded, changed: true }
      }
      const award = await readAward(trx, { claimId, app })
      if (!award)
        throw conflict(`${problems.get(claimId) ?? `claim ${claimId}`}: only a filed claim is awarded`)
      const was = award.grossCents
      if (cents === was) {
        return changeAwardCosts(trx, {
          award,
          costsCents: costsCents ?? award.costsCents,
          evidenceKey,
          by,
          at,
        })
      }
      const costs = costsCents ?? award.costsCents
      assertCostsWithinAward({ claimId, costsCents: costs, grossCents: cents })
      await assertCorrectable(trx, { claimId, was, cents, settlementId: award.settlementId })
      const corrected = await trx
        .updateTable('claim_awards')
        .set({ gross_cents: cents, costs_cents: costs, source: 'entered', set_at: at, set_by: by.actor })
        .where('claim_id', '=', claimId)
        .where('gross_cents', '=', was)
        .executeTakeFirst()
      if (Number(corrected.numUpdatedRows) !== 1) {
        throw conflict(`claim ${claimId}'s award was changed meanwhile; reload it and try again`)
      }
      await recordTrustEntries(trx, evidenceKey, [
        { app, batch_id: null, claim_id: claimId, kind: 'received', amount_cents: cents - was, at },
      ])
      const costsChange =
        costs === award.costsCents
          ? ''
          : `; costs advanced ${formatCents(award.costsCents)} → ${formatCents(costs)}`
      await writeAuditEntry(trx, evidenceKey, {
        ...by,
        app,
        action: 'award_corrected',
        detail: `claim ${claimId}: ${formatCents(was)} → ${formatCents(cents)} (${formatCents(cents - was)} more received)${costsChange}`,
      })
      return { claimId, grossCents: cents, costsCents: costs, status: award.status, changed: true }
    }),
  )
}

/** Refuses (409) a correction that setAward does not make, saying why. */
async function assertCorrectable(
  trx: Transaction<Database>,
  {
    claimId,
    was,
    cents,
    settlementId,
  }: { claimId: number; was: number; cents: number; settlementId: number | null },
): Promise<void> {
  const item = await payoutItemOf(trx, claimId)
  if (item) {
    throw conflict(
      `claim ${claimId}'s award of ${formatCents(was)} is in payout batch ${item.batch_id} already: an award is corrected only before it is paid`,
    )
  }
  if (settlementId !== null) {
    throw conflict(
      `claim ${claimId}'s award is its share of settlement ${settlementId}: a share is not corrected on its own, or the shares would no longer add up to the settlement`,
    )
  }
  if (cents < was) {
    throw conflict(
      `an award is corrected upward only before payout: claim ${claimId}'s ${formatCents(was)} is recorded as received into the trust account, and only a payment takes money out of it`,
    )
  }
}

export function conflict(message: string): AppError {
  return new AppError('CONFLICT', { status: 409, message })
}
