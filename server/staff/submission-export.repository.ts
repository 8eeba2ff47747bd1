import crypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { copyColumnOut } from '../db/copy-out.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { ftsInPartition, searchPartitionStart, sqliteFtsQuery, type SearchTerm } from './claim-search.ts'
import type { CsvBody, CsvChunk } from './csv.ts'
import { appClaims, SUBMISSION_COLUMNS, type SubmissionRow } from './dashboard.repository.ts'
import { submissionCsvRecord, submissionCsvRecordSql, submissionRowToSubmission } from './submission.ts'

export const EXPORT_PAGE_SIZE = 2500

/**
 * What an app's CSV download holds, with this origin in its screenshot links: on PostgreSQL the records
 * the database renders and streams (findSubmissionCsvForExport), on SQLite keyset pages of rows that
 * the server renders.
 */
export function submissionExportBody(
  db: Kysely<Database>,
  { app, term, origin }: { app: string; term: SearchTerm | undefined; origin: string },
): CsvBody<SubmissionRow> {
  if (isPostgresDb(db)) return { chunks: findSubmissionCsvForExport(db, { app, term, origin }) }
  return {
    pages: findSubmissionsForExport(db, { app, term }),
    record: (row) => submissionCsvRecord(submissionRowToSubmission(row), origin),
  }
}

/**
 * Every claim of the app matching the term, newest id first, EXPORT_PAGE_SIZE rows at a time. Keyset
 * pages (id < last id) hold no cursor or connection between pages, cost the same at any depth, and keep
 * memory flat.
 */
export async function* findSubmissionsForExport(
  db: Kysely<Database>,
  { app, term }: { app: string; term: SearchTerm | undefined },
): AsyncGenerator<SubmissionRow[]> {
  const fts = term && !isPostgresDb(db) ? sqliteFtsQuery(term) : undefined
  if (fts === undefined) {
    yield* keysetPages((beforeId) =>
      appClaims(db, { app, term })
        .where('claims.id', '<', beforeId)
        .select(SUBMISSION_COLUMNS)
        .orderBy('claims.id', 'desc')
        .limit(EXPORT_PAGE_SIZE)
        .execute(),
    )
    return
  }
  // FTS5 cannot resume a match list at a rowid bound (it walks the list from its start each time), so
  // keyset pages over it cost O(matches) each. Instead the ids are matched once into a temporary table
  // of SQLite's single connection, and the pages walk that.
  const table = `claim_export_${crypto.randomBytes(8).toString('hex')}`
  const matches = sql.table(`temp.${table}`)
  await sql`CREATE TEMP TABLE ${sql.id(table)} (id INTEGER PRIMARY KEY)`.execute(db)
  try {
    const start = await searchPartitionStart(db, app)
    if (start !== undefined) {
      await sql`
        INSERT INTO ${matches} (id)
        SELECT rowid - ${start} FROM claims_search WHERE ${ftsInPartition(fts, start)}`.execute(db)
    }
    yield* keysetPages((beforeId) =>
      db
        .selectFrom(sql<{ id: number }>`${matches}`.as('matches'))
        .innerJoin('claims', 'claims.id', 'matches.id')
        .where('matches.id', '<', beforeId)
        .select(SUBMISSION_COLUMNS)
        .orderBy('matches.id', 'desc')
        .limit(EXPORT_PAGE_SIZE)
        .execute(),
    )
  } finally {
    await sql`DROP TABLE IF EXISTS ${matches}`.execute(db)
  }
}

async function* keysetPages(
  fetchPage: (beforeId: number) => Promise<SubmissionRow[]>,
): AsyncGenerator<SubmissionRow[]> {
  let beforeId = Number.MAX_SAFE_INTEGER
  for (;;) {
    const rows = await fetchPage(beforeId)
    if (rows.length > 0) yield rows
    if (rows.length < EXPORT_PAGE_SIZE) return
    beforeId = Number(rows.at(-1)!.id)
  }
}

/**
 * PostgreSQL: every claim of the app matching the term, newest id first, as CSV records that the
 * database renders (submissionCsvRecordSql, with this origin in the screenshot links) and streams with
 * COPY (copyColumnOut): one snapshot and one plan for the whole export, and the records' bytes passed on
 * as they arrive, at the pace the download takes them, with nothing built per claim in JavaScript.
 */
export async function* findSubmissionCsvForExport(
  db: Kysely<Database>,
  { app, term, origin }: { app: string; term: SearchTerm | undefined; origin: string },
): AsyncGenerator<CsvChunk> {
  const records = appClaims(db, { app, term })
    .select(submissionCsvRecordSql(origin).as('record'))
    .orderBy('claims.id', 'desc')
    .compile()
  for await (const { bytes, count } of copyColumnOut(db, records)) yield { text: bytes, records: count }
}
