import { sql, type Kysely, type SqlBool } from 'kysely'
import type { VisibleApps } from '../../src/api/staff.ts'
import { copyColumnOut } from '../db/copy-out.ts'
import type { Database } from '../db/database.ts'
import {
  appTotal,
  matchingPage,
  unsearchedPage,
  type ClaimCondition,
  type ClaimSearch,
} from './claim-list.ts'
import { filtersHold, type ClaimFilter } from './claim-filters.ts'
import { likePattern, type SearchTerm } from '../platform/search-term.ts'
import { claimCsvRecordSql } from './claim-row.ts'
import { flaggedPage, isFlaggedIn } from './flagged-claims.ts'

/**
 * PostgreSQL: a term is matched with LIKE on claims.search_text (the four fields lowercased, migration
 * 2026_11_25_1400), which its pg_trgm GIN index serves, or by the phone's digits.
 */
export function postgresClaimSearch(db: Kysely<Database>): ClaimSearch {
  return {
    async page({ app, term, order, flagged, filters, page, pageSize, visibleApps }) {
      const offset = (page - 1) * pageSize
      if (flagged) {
        const where: ClaimCondition = (eb) =>
          eb.and([...(term ? [matchesTerm(term)(eb)] : []), filtersHold(filters)])
        const [found, total] = await Promise.all([
          flaggedPage(db, { app, where, apps: visibleApps, offset, pageSize, order }),
          appTotal(db, app),
        ])
        return { ...found, total }
      }
      if (!term) return unsearchedPage(db, { app, filters, offset, pageSize, order })
      const where: ClaimCondition = (eb) => eb.and([matchesTerm(term)(eb), filtersHold(filters)])
      const [found, total] = await Promise.all([
        matchingPage(db, { app, where, offset, pageSize, order }),
        appTotal(db, app),
      ])
      return { ...found, total }
    },
    exportBody({ app, term, flagged, filters, origin, visibleApps }) {
      return { chunks: csvChunks(db, { app, term, flagged, filters, origin, visibleApps }) }
    },
    async matchingIds({ app, term, flagged, filters, visibleApps }) {
      const inApp = db.selectFrom('claims').where('claims.app', '=', app).where(filtersHold(filters))
      const claims = flagged ? inApp.where(isFlaggedIn(visibleApps)) : inApp
      return sql<{ id: number }>`${(term ? claims.where(matchesTerm(term)) : claims).select('claims.id')}`
    },
  }
}

/**
 * Every claim of the app matching the term, newest id first, as CSV records that the database renders
 * (claimCsvRecordSql, with this origin in the screenshot links) and streams with COPY
 * (copyColumnOut): one snapshot and one plan for the whole export, and the records' bytes passed on as
 * they arrive, at the pace the download takes them, with nothing built per claim in JavaScript.
 */
async function* csvChunks(
  db: Kysely<Database>,
  {
    app,
    term,
    flagged,
    filters,
    origin,
    visibleApps,
  }: {
    app: string
    term: SearchTerm | undefined
    flagged: boolean
    filters: readonly ClaimFilter[]
    origin: string
    visibleApps: VisibleApps
  },
) {
  const inApp = db.selectFrom('claims').where('claims.app', '=', app).where(filtersHold(filters))
  const claims = flagged ? inApp.where(isFlaggedIn(visibleApps)) : inApp
  const records = (term ? claims.where(matchesTerm(term)) : claims)
    .select(claimCsvRecordSql({ origin, apps: visibleApps }).as('record'))
    .orderBy('claims.id', 'desc')
    .compile()
  for await (const { bytes, count } of copyColumnOut(db, records)) yield { text: bytes, records: count }
}

/** Case-insensitive substring match on e-mail, phone, first and last name, or on the phone's digits. */
function matchesTerm(term: SearchTerm): ClaimCondition {
  return (eb) => {
    const conditions = [sql<SqlBool>`claims.search_text LIKE lower(${likePattern(term.text)})`]
    if (term.digits) {
      conditions.push(
        sql<SqlBool>`regexp_replace(claims.phone_number, '[^0-9]', '', 'g') LIKE ${likePattern(term.digits)}`,
      )
    }
    return eb.or(conditions)
  }
}
