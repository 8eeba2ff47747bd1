import type { Kysely } from 'kysely'
import type { AwardList } from '../../src/api/payouts.ts'
import type { Database } from '../db/database.ts'

/** A page of the app's awards, the newest claim first, and the totals of all of them. */
export async function listAwards(
  db: Kysely<Database>,
  { app, page, pageSize }: { app: string; page: number; pageSize: number },
): Promise<AwardList> {
  const rows = await db
    .selectFrom('claim_awards as award')
    .innerJoin('claims', 'claims.id', 'award.claim_id')
    .leftJoin('settlements as settlement', 'settlement.id', 'award.settlement_id')
    .select([
      'award.claim_id',
      'claims.first_name',
      'claims.last_name',
      'claims.case_number',
      'award.gross_cents',
      'award.costs_cents',
      'award.source',
      'award.settlement_id',
      'settlement.name as settlement_name',
      'award.set_at',
      'award.set_by',
    ])
    .where('award.app', '=', app)
    .orderBy('award.claim_id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()
  const totals = await db
    .selectFrom('claim_awards')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('gross_cents').as('sum'),
      eb.fn.sum<number | string>('costs_cents').as('costs'),
    ])
    .where('app', '=', app)
    .executeTakeFirstOrThrow()
  return {
    awards: rows.map((row) => ({
      claimId: Number(row.claim_id),
      claimantName: `${row.first_name} ${row.last_name}`.trim(),
      caseNumber: row.case_number,
      grossCents: Number(row.gross_cents),
      costsCents: Number(row.costs_cents),
      source: row.source,
      settlement:
        row.settlement_id === null
          ? null
          : { id: Number(row.settlement_id), name: row.settlement_name ?? '' },
      setAt: new Date(Number(row.set_at)).toISOString(),
      setBy: row.set_by,
    })),
    page,
    pageSize,
    totals: {
      count: Number(totals.count),
      grossCents: Number(totals.sum ?? 0),
      costsCents: Number(totals.costs ?? 0),
    },
  }
}
