import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'
import { SEARCH_PARTITION } from '../db/search-partition.ts'

/** What the staff typed, ready for both kinds of index; undefined means "everything". */
export interface SearchTerm {
  text: string
  /** The term's digits, matched against the phone's digits; only when there are at least three. */
  digits: string | undefined
}

export const MAX_SEARCH_LENGTH = 200
// FTS5 trigram and pg_trgm both need three characters to use their index
const MIN_INDEXED_LENGTH = 3

export function parseSearchTerm(q: string): SearchTerm | undefined {
  const text = q.trim()
  if (text === '') return undefined
  // only a phone-like term ('555-1234', '(555) 12') is matched by its digits: 'john123' is an e-mail search
  const digits = /^[\d\s().+-]+$/.test(text) ? text.replace(/\D/g, '') : ''
  return { text, digits: digits.length >= MIN_INDEXED_LENGTH ? digits : undefined }
}

/**
 * Case-insensitive substring match on email, phone, first and last name, or on the phone's digits, as
 * a condition on claims. PostgreSQL matches the stored search_text with LIKE, which its pg_trgm GIN
 * index serves. On SQLite it is only for a term too short for the FTS5 trigram index (1-2
 * characters), which LIKE answers by scanning the app's rows; a longer term goes to claims_search
 * itself (findSubmissionsPage, findSubmissionsForExport).
 */
export function matchesSearch(
  postgres: boolean,
  term: SearchTerm,
): (eb: ExpressionBuilder<Database, 'claims'>) => Expression<SqlBool> {
  if (!postgres && sqliteFtsQuery(term) !== undefined) {
    throw new Error('on SQLite a term of three characters or more is matched in claims_search')
  }
  return (eb) => {
    const pattern = likePattern(term.text)
    if (postgres) {
      // search_text: the four fields lowercased, one trigram index (migration 2026_11_25_1400)
      const conditions = [sql<SqlBool>`claims.search_text LIKE lower(${pattern})`]
      if (term.digits) {
        conditions.push(
          sql<SqlBool>`regexp_replace(claims.phone_number, '[^0-9]', '', 'g') LIKE ${likePattern(term.digits)}`,
        )
      }
      return eb.or(conditions)
    }
    return eb.or(
      ['email', 'phone_number', 'first_name', 'last_name'].map(
        (column) => sql<SqlBool>`${sql.ref(`claims.${column}`)} LIKE ${pattern} ESCAPE '\\'`,
      ),
    )
  }
}

/** claims_search's matches of an FTS query within the app partition starting at `start`. */
export function ftsInPartition(fts: string, start: number | Expression<number>): Expression<SqlBool> {
  return sql<SqlBool>`claims_search MATCH ${fts} AND rowid BETWEEN ${start} AND ${start} + ${SEARCH_PARTITION - 1}`
}

/** Where an app's entries in claims_search start; undefined while the app has no claim. */
export async function searchPartitionStart(db: Kysely<Database>, app: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('claim_search_apps')
    .select('number')
    .where('app', '=', app)
    .executeTakeFirst()
  return row === undefined ? undefined : Number(row.number) * SEARCH_PARTITION
}

/**
 * The FTS5 query for SQLite's claims_search: the term as one phrase (its quotes doubled) in the text
 * columns, or its digits in phone_digits. Undefined when the term is too short for trigrams.
 */
export function sqliteFtsQuery(term: SearchTerm): string | undefined {
  if ([...term.text].length < MIN_INDEXED_LENGTH) return undefined
  const text = `{email phone_number first_name last_name} : ${ftsPhrase(term.text)}`
  return term.digits ? `${text} OR phone_digits : ${ftsPhrase(term.digits)}` : text
}

function ftsPhrase(value: string): string {
  return `"${value.replaceAll('"', '""')}"`
}

/** '%term%' with LIKE's own characters (% _ \) escaped by a backslash. */
export function likePattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, '\\$&')}%`
}
