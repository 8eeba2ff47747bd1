import type { Kysely } from 'kysely'
import type { SettlementCreated, SettlementRule } from '../../src/api/payouts.ts'
import { AppError } from '../../src/app-error.ts'
import { formatCents } from '../../src/money.ts'
import type { ReviewConfig } from '../../src/review-config.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { allocateSettlement } from './allocate-settlement.ts'
import { conflict, readClaimsToAward, writeAwards, type AwardActor } from './awards.ts'

/** The most claims a refusal names; a settlement of thousands would otherwise answer megabytes. */
const MAX_PROBLEMS_ANSWERED = 100

/**
 * Shares a settlement among filed claims of one app, in one transaction: the settlement's row, each
 * claim's share as its award (see writeAwards, source 'settlement'), and one audit entry naming the
 * count and the total. The claims are `claimIds`, or every filed claim of the app when left out, taken
 * in claim id order; the shares add up to the total to the cent (allocateSettlement). Refuses with 409
 * a listed claim that is not a filed claim of the app, or no claim to share among; with 422 a share
 * that would be $0.00 (a total too small for its claims) or a claim the rule cannot weigh.
 */
export async function createSettlement(
  db: Kysely<Database>,
  {
    app,
    name,
    totalCents,
    rule,
    claimIds,
    review,
    evidenceKey,
    by,
  }: {
    app: string
    name: string
    totalCents: number
    rule: SettlementRule
    claimIds?: readonly number[] | undefined
    review: ReviewConfig
    evidenceKey: Buffer
    by: AwardActor
  },
): Promise<SettlementCreated> {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const at = Date.now()
      const ids = [
        ...(claimIds ??
          (
            await trx
              .selectFrom('claims')
              .select('id')
              .where('app', '=', app)
              .where('review_status', '=', review.roles.filed)
              .execute()
          ).map(({ id }) => Number(id))),
      ].sort((a, b) => a - b)
      if (ids.length === 0)
        throw conflict(`${app} has no ${review.roles.filed} claim to share a settlement among`)
      const { claims, problems } = await readClaimsToAward(trx, { app, review, claimIds: ids })
      if (problems.size > 0) {
        const listed = [...problems.values()].slice(0, MAX_PROBLEMS_ANSWERED)
        throw new AppError('CONFLICT', {
          status: 409,
          message: `${problems.size} of ${ids.length} claims cannot share the settlement; only a filed claim is awarded:\n${listed.join('\n')}`,
          details: { problems: listed, claimIds: [...problems.keys()] },
        })
      }
      const shares = allocateSettlement({
        totalCents,
        rule,
        claims: ids.map((id) => ({ claimId: id, cashAdvanceCount: claims.get(id)!.cashAdvanceCount })),
      })
      const empty = shares.filter(({ cents }) => cents === 0)
      if (empty.length > 0) {
        throw new AppError('UNPROCESSABLE', {
          status: 422,
          message: `${formatCents(totalCents)} shared ${rule === 'equal' ? 'equally' : 'by cash advances'} leaves ${empty.length} of ${ids.length} claims $0.00 (claim ${empty
            .slice(0, 10)
            .map(({ claimId }) => claimId)
            .join(', ')}${empty.length > 10 ? ', …' : ''}); share it among fewer claims`,
        })
      }
      const { id } = await trx
        .insertInto('settlements')
        .values({ app, total_cents: totalCents, rule, name, created_at: at, created_by: by.actor })
        .returning('id')
        .executeTakeFirstOrThrow()
      const settlementId = Number(id)
      await writeAwards(trx, {
        app,
        review,
        evidenceKey,
        by,
        awards: shares.map(({ claimId, cents }) => ({ claim: claims.get(claimId)!, cents })),
        source: 'settlement',
        settlementId,
        at,
      })
      await writeAuditEntry(trx, evidenceKey, {
        ...by,
        app,
        action: 'settlement_allocated',
        detail: `settlement ${settlementId} "${name}": ${shares.length} awards, ${formatCents(totalCents)} in all, shared ${rule === 'equal' ? 'equally' : 'by cash advances'}`,
      })
      return { id: settlementId, name, totalCents, rule, shares }
    }),
  )
}
