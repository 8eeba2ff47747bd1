import crypto from 'node:crypto'
import { sql, type Compilable, type Expression, type Kysely, type SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'
import { sqliteValueRows } from '../db/create-db.ts'
import { keysetPages, EXPORT_PAGE_SIZE } from '../db/keyset-pages.ts'
import { SEARCH_PARTITION } from '../db/search-partition.ts'
import type { ListOrder } from '../platform/list-query.ts'
import {
  appTotal,
  cappedCount,
  countLimit,
  direction,
  matchingPage,
  unsearchedPage,
  CLAIM_LIST_COLUMNS,
  type ClaimCondition,
  type ClaimListRow,
  type ClaimSearch,
  type ClaimsPage,
  type SubmissionValues,
} from './claim-list.ts'
import { filtersHold, filtersHoldForId, type ClaimFilter } from './claim-filters.ts'
import { likePattern, MIN_INDEXED_LENGTH, type SearchTerm } from '../platform/search-term.ts'
import type { VisibleApps } from '../../src/api/staff.ts'
import type { CsvChunk } from '../platform/csv.ts'
import { claimCsvRenderer } from './claim-row.ts'
import { findDuplicateIdsBetween, flaggedExportPages, flaggedPage, isFlaggedIn } from './flagged-claims.ts'
import { findFraudCodes } from './fraud-codes.ts'
import { MAX_SCORE } from '../../src/fraud-config.ts'

/**
 * SQLite: a term of three characters or more is matched in the app's partition of claims_search (an
 * FTS5 trigram index whose rowids are the app's partition start plus the claim id); a shorter one by
 * LIKE over the app's rows.
 */
export function sqliteClaimSearch(db: Kysely<Database>): ClaimSearch {
  return {
    async page({ app, term, order, flagged, filters, page, pageSize, visibleApps }) {
      const offset = (page - 1) * pageSize
      if (flagged) {
        const where: ClaimCondition = (eb) =>
          eb.and([...(term ? [likeAnyField(term)(eb)] : []), filtersHold(filters)])
        const [found, total] = await Promise.all([
          flaggedPage(db, { app, where, apps: visibleApps, offset, pageSize, order }),
          appTotal(db, app),
        ])
        return { ...found, total }
      }
      if (!term) return unsearchedPage(db, { app, filters, offset, pageSize, order })
      const fts = ftsQuery(term)
      const where: ClaimCondition = (eb) => eb.and([likeAnyField(term)(eb), filtersHold(filters)])
      const [found, total] = await Promise.all([
        fts === undefined
          ? matchingPage(db, { app, where, offset, pageSize, order })
          : indexedPage(db, { app, fts, filters, offset, pageSize, order }),
        appTotal(db, app),
      ])
      return { ...found, total }
    },
    exportBody({ app, term, flagged, filters, origin, visibleApps }) {
      const pages = flagged
        ? flaggedExportPages(db, {
            app,
            where: (eb) => eb.and([...(term ? [likeAnyField(term)(eb)] : []), filtersHold(filters)]),
            apps: visibleApps,
          })
        : exportPages(db, { app, term, filters })
      return { chunks: csvChunks(db, { pages, origin, apps: visibleApps }) }
    },
    async matchingIds({ app, term, flagged, filters, visibleApps }) {
      const fts = term && !flagged ? ftsQuery(term) : undefined
      if (fts === undefined) {
        const inApp = db.selectFrom('claims').where('claims.app', '=', app).where(filtersHold(filters))
        const claims = flagged ? inApp.where(isFlaggedIn(visibleApps)) : inApp
        return sql<{ id: number }>`${(term ? claims.where(likeAnyField(term)) : claims).select('claims.id')}`
      }
      const start = await partitionStart(db, app)
      if (start === undefined) return sql<{ id: number }>`(SELECT NULL AS id WHERE 1 = 0)`
      return sql<{ id: number }>`(SELECT rowid - ${start} AS id FROM claims_search
        WHERE ${inPartition(fts, start)} AND ${filtersHoldForId(filters, { app, id: sql`claims_search.rowid - ${start}` })})`
    },
  }
}

/**
 * A term of three characters or more, over the app's partition of the search index: the page's ids
 * (newest or oldest id first), then only the page's rows from claims. One walk of the index in id order
 * gives both: it stops at countLimit matches, whose ids alone the window count(*) counts (cappedCount),
 * and the page is cut from them.
 */
async function indexedPage(
  db: Kysely<Database>,
  {
    app,
    fts,
    filters,
    offset,
    pageSize,
    order,
  }: {
    app: string
    fts: string
    filters: readonly ClaimFilter[]
    offset: number
    pageSize: number
    order: ListOrder
  },
): Promise<Omit<ClaimsPage, 'total'>> {
  const start = await partitionStart(db, app)
  if (start === undefined) return { rows: [], count: 0, isCountCapped: false }
  const matches = sql<SqlBool>`${inPartition(fts, start)} AND ${filtersHoldForId(filters, { app, id: sql`claims_search.rowid - ${start}` })}`
  const limit = countLimit({ offset, pageSize })
  const inOrder = order === 'oldest' ? sql`ASC` : sql`DESC`
  const { rows: ids } = await sql<{ id: number; match_count: number }>`
    SELECT id, count(*) OVER () AS match_count FROM (
      SELECT rowid - ${start} AS id FROM claims_search WHERE ${matches} ORDER BY rowid ${inOrder} LIMIT ${limit}
    )
    ORDER BY id ${inOrder} LIMIT ${pageSize} OFFSET ${offset}`.execute(db)
  if (ids.length === 0) {
    if (offset === 0) return { rows: [], count: 0, isCountCapped: false }
    // a page past the last match has no row to carry the count, and fewer matches than its start to count
    const { rows: counted } = await sql<{ count: number }>`
      SELECT count(*) AS count FROM claims_search WHERE ${matches}`.execute(db)
    return { rows: [], count: Number(counted[0]?.count ?? 0), isCountCapped: false }
  }
  const count = cappedCount(Number(ids[0]!.match_count), { offset, pageSize })
  const rows = await db
    .selectFrom('claims')
    .select(CLAIM_LIST_COLUMNS)
    .where(
      'claims.id',
      'in',
      ids.map(({ id }) => Number(id)),
    )
    .orderBy('claims.id', direction(order))
    .execute()
  return { rows, ...count }
}

/**
 * The pages' claims as CSV records (claimCsvRenderer), one chunk of text a page, with their
 * duplicates read by one range query a page, and the fraud reasons' codes of those with a deduction.
 */
async function* csvChunks(
  db: Kysely<Database>,
  { pages, origin, apps }: { pages: AsyncIterable<SubmissionValues[]>; origin: string; apps: VisibleApps },
): AsyncGenerator<CsvChunk> {
  const render = claimCsvRenderer(origin)
  for await (const rows of pages) {
    if (rows.length === 0) continue
    // newest id first
    const [duplicates, fraudCodes] = await Promise.all([
      findDuplicateIdsBetween(db, { lowest: claimId(rows.at(-1)!), highest: claimId(rows[0]!), apps }),
      findFraudCodes(db, rows.filter((row) => isDeducted(row)).map(claimId)),
    ])
    let text = ''
    for (const row of rows) text += render(row, duplicates.get(claimId(row)), fraudCodes.get(claimId(row)))
    yield { text, records: rows.length }
  }
}

function claimId([id]: SubmissionValues): number {
  return Number(id)
}

const FRAUD_SCORE_AT = CLAIM_LIST_COLUMNS.indexOf('claims.fraud_score')

/** Scored below the maximum: the claim has fraud reasons. */
function isDeducted(row: SubmissionValues): boolean {
  const score = row[FRAUD_SCORE_AT] as ClaimListRow['fraud_score']
  return score !== null && Number(score) < MAX_SCORE
}

/**
 * Every claim of the app matching the term, newest id first, in keyset pages of SubmissionValues. FTS5
 * cannot resume a match list at a rowid bound (it walks the list from its start each time), so keyset
 * pages over it would cost O(matches) each: the ids are matched once into a temporary table of SQLite's
 * single connection, and the pages walk that.
 */
async function* exportPages(
  db: Kysely<Database>,
  { app, term, filters }: { app: string; term: SearchTerm | undefined; filters: readonly ClaimFilter[] },
): AsyncGenerator<SubmissionValues[]> {
  const valuePages = (fetchPage: (beforeId: number) => Compilable) =>
    keysetPages((beforeId) => sqliteValueRows<SubmissionValues>(db, fetchPage(beforeId).compile()), claimId)
  const fts = term && ftsQuery(term)
  if (fts === undefined) {
    const claims = db.selectFrom('claims').where('claims.app', '=', app).where(filtersHold(filters))
    const matching = term ? claims.where(likeAnyField(term)) : claims
    yield* valuePages((beforeId) =>
      matching
        .where('claims.id', '<', beforeId)
        .select(CLAIM_LIST_COLUMNS)
        .orderBy('claims.id', 'desc')
        .limit(EXPORT_PAGE_SIZE),
    )
    return
  }
  const table = `claim_export_${crypto.randomBytes(8).toString('hex')}`
  const matches = sql.table(`temp.${table}`)
  await sql`CREATE TEMP TABLE ${sql.id(table)} (id INTEGER PRIMARY KEY)`.execute(db)
  try {
    const start = await partitionStart(db, app)
    if (start !== undefined) {
      await sql`
        INSERT INTO ${matches} (id)
        SELECT rowid - ${start} FROM claims_search
        WHERE ${inPartition(fts, start)} AND ${filtersHoldForId(filters, { app, id: sql`claims_search.rowid - ${start}` })}`.execute(
        db,
      )
    }
    yield* valuePages((beforeId) =>
      db
        .selectFrom(sql<{ id: number }>`${matches}`.as('matches'))
        .innerJoin('claims', 'claims.id', 'matches.id')
        .where('matches.id', '<', beforeId)
        .select(CLAIM_LIST_COLUMNS)
        .orderBy('matches.id', 'desc')
        .limit(EXPORT_PAGE_SIZE),
    )
  } finally {
    await sql`DROP TABLE IF EXISTS ${matches}`.execute(db)
  }
}

/** Case-insensitive (ASCII) substring match on e-mail, phone, first and last name, by LIKE. */
function likeAnyField(term: SearchTerm): ClaimCondition {
  const pattern = likePattern(term.text)
  return (eb) =>
    eb.or(
      ['email', 'phone_number', 'first_name', 'last_name'].map(
        (column) => sql<SqlBool>`${sql.ref(`claims.${column}`)} LIKE ${pattern} ESCAPE '\\'`,
      ),
    )
}

/**
 * The FTS5 query for claims_search: the term as one phrase (its quotes doubled) in the text columns, or
 * its digits in phone_digits. Undefined when the term is too short for trigrams.
 */
function ftsQuery(term: SearchTerm): string | undefined {
  if ([...term.text].length < MIN_INDEXED_LENGTH) return undefined
  const text = `{email phone_number first_name last_name} : ${ftsPhrase(term.text)}`
  return term.digits ? `${text} OR phone_digits : ${ftsPhrase(term.digits)}` : text
}

function ftsPhrase(value: string): string {
  return `"${value.replaceAll('"', '""')}"`
}

/** claims_search's matches of an FTS query within the app partition starting at `start`. */
function inPartition(fts: string, start: number): Expression<SqlBool> {
  return sql<SqlBool>`claims_search MATCH ${fts} AND rowid BETWEEN ${start} AND ${start} + ${SEARCH_PARTITION - 1}`
}

/** Where an app's entries in claims_search start; undefined while the app has no claim. */
async function partitionStart(db: Kysely<Database>, app: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('claim_search_apps')
    .select('number')
    .where('app', '=', app)
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.number) * SEARCH_PARTITION
}
