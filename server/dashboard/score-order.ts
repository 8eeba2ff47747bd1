import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'
import {
  appTotal,
  cappedCount,
  countLimit,
  CLAIM_LIST_COLUMNS,
  type ClaimSearch,
  type ClaimsPage,
} from './claim-list.ts'
import { filteredCount, filtersHold } from './claim-filters.ts'

/**
 * The search with `order: 'score'` added: the lowest fraud score first (a reviewer works the worst
 * first), then the claims not scored yet, oldest first. Every other order goes to the search as it is.
 * The list is the search's own matches (matchingIds), or the filters alone without a term, walked in
 * claims_by_fraud_score (app, fraud_score, id) order.
 */
export function withScoreOrder(db: Kysely<Database>, search: ClaimSearch): ClaimSearch {
  return {
    ...search,
    async page(query) {
      if (query.order !== 'score') return search.page(query)
      const { app, term, flagged, filters, page, pageSize, visibleApps } = query
      const offset = (page - 1) * pageSize
      const isPlain = !term && !flagged
      const where = isPlain
        ? filtersHold(filters)
        : sql<SqlBool>`claims.id IN ${await search.matchingIds({ app, term, flagged, filters, visibleApps })}`
      const [found, total] = await Promise.all([
        scoreOrderedPage(db, { app, where, offset, pageSize }),
        appTotal(db, app),
      ])
      // the list without a term is counted as the date orders count it: the app's total, or one filter's counter
      const counted = !isPlain
        ? undefined
        : filters.length === 0
          ? total
          : await filteredCount(db, { app, filters, total })
      return counted === undefined
        ? { ...found, total }
        : { ...found, count: counted, isCountCapped: false, total }
    },
  }
}

/**
 * A page of the app's claims meeting the condition, lowest score first, then those not scored yet,
 * and their count up to the cap (cappedCount). Each part is one walk of claims_by_fraud_score: the
 * scored claims in (fraud_score, id) order, the unscored ones (fraud_score IS NULL) in id order; both
 * stop at countLimit, so the page costs its offset and the cap, not the app's size. Two walks rather
 * than one ORDER BY, because SQLite sorts NULL first and PostgreSQL last.
 */
async function scoreOrderedPage(
  db: Kysely<Database>,
  {
    app,
    where,
    offset,
    pageSize,
  }: { app: string; where: RawBuilder<SqlBool>; offset: number; pageSize: number },
): Promise<Omit<ClaimsPage, 'total'>> {
  const limit = countLimit({ offset, pageSize })
  const matching = db.selectFrom('claims').select('claims.id').where('claims.app', '=', app).where(where)
  const scored = await matching
    .where('claims.fraud_score', 'is not', null)
    .orderBy('claims.fraud_score')
    .orderBy('claims.id')
    .limit(limit)
    .execute()
  const unscored =
    scored.length < limit
      ? await matching
          .where('claims.fraud_score', 'is', null)
          .orderBy('claims.id')
          .limit(limit - scored.length)
          .execute()
      : []
  const ids = [...scored, ...unscored].map(({ id }) => Number(id))
  const pageIds = ids.slice(offset, offset + pageSize)
  const rows =
    pageIds.length === 0
      ? []
      : await db.selectFrom('claims').select(CLAIM_LIST_COLUMNS).where('claims.id', 'in', pageIds).execute()
  const byId = new Map(rows.map((row) => [Number(row.id), row]))
  return {
    rows: pageIds.flatMap((id) => byId.get(id) ?? []),
    ...cappedCount(ids.length, { offset, pageSize }),
  }
}
