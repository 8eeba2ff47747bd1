import { sql, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { EXPORT_PAGE_SIZE, keysetPages } from '../db/keyset-pages.ts'
import { likePattern, type SearchTerm } from '../platform/search-term.ts'

const LIST_COLUMNS = [
  'id',
  'created_at',
  'first_name',
  'last_name',
  'email',
  'phone',
  'cash_advance_apps',
  'signature',
  'confirmed_at',
  'disowned_at',
] as const

/**
 * A page of intakes with the number matching the term and the number of all. The list is newest first
 * by date; a search's matches newest first by id (the order they were stored in), which its indexes
 * give without reading a row (see matchingIds). The count is only run when the page is full: a last
 * page already tells it.
 */
export async function findIntakePage(
  db: Kysely<Database>,
  { term, page, pageSize }: { term: SearchTerm | undefined; page: number; pageSize: number },
) {
  const offset = (page - 1) * pageSize
  const totalOf = async (query: SelectQueryBuilder<Database, 'form_submissions', object>) =>
    Number(
      (await query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow())
        .total,
    )
  const everything = db.selectFrom('form_submissions')
  if (!term) {
    const [rows, total] = await Promise.all([
      everything
        .select(LIST_COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset(offset)
        .execute(),
      totalOf(everything),
    ])
    return { rows, count: total, total }
  }
  const matching = matchingIds(db, term)
  const [ids, total] = await Promise.all([
    matching.ordered.select('id').limit(pageSize).offset(offset).execute(),
    totalOf(everything),
  ])
  const rows =
    ids.length === 0
      ? []
      : await everything
          .select(LIST_COLUMNS)
          .where(
            'id',
            'in',
            ids.map(({ id }) => id),
          )
          .orderBy('id', 'desc')
          .execute()
  // a page short of full is the last one (the first one, when nothing matches): it gives the count
  const isLastPage = ids.length < pageSize && (ids.length > 0 || offset === 0)
  return { rows, count: isLastPage ? offset + ids.length : await totalOf(matching.all), total }
}

/**
 * The intakes matching a term: case-insensitive substring match on the e-mail and the phone as stored,
 * or the phone's digits for a phone-like term ("8085550100" finds "(808) 555-0100"); and, for a term
 * that could be part of a name (no "@", no digit), on the full name ("Jane Doe" finds her, as do "Jane"
 * and "Doe"). `ordered` is newest id first.
 *
 * No migration gives form_submissions a substring index as claims have (claims_search, pg_trgm). The
 * e-mail and the phone are both in form_submissions_email_phone_unique, so a contact term is matched
 * by a scan of that index alone: under 0.3 s for 300,000 intakes on SQLite even when every one matches.
 * A name is only in the rows, which carry each signature's PNG: a name term scans the table (about a
 * second for 300,000 intakes on SQLite, during which that process answers nothing else; PostgreSQL
 * keeps the signatures out of line and scans without holding up the server).
 */
function matchingIds(db: Kysely<Database>, term: SearchTerm) {
  // SQLite's LIKE ignores ASCII case and needs its escape character named; PostgreSQL's ILIKE escapes
  // with a backslash by default
  const like = isPostgresDb(db) ? sql`ILIKE` : sql`LIKE`
  const escape = isPostgresDb(db) ? sql`` : sql` ESCAPE '\\'`
  const pattern = likePattern(term.text)
  const contact = [
    sql<SqlBool>`email ${like} ${pattern}${escape}`,
    sql<SqlBool>`phone ${like} ${pattern}${escape}`,
    // the phone is stored as the form formats it, "(808) 555-0100"
    ...(term.digits
      ? [
          sql<SqlBool>`replace(replace(replace(replace(phone, '(', ''), ')', ''), ' ', ''), '-', '') LIKE ${likePattern(term.digits)}`,
        ]
      : []),
  ]
  const isContactTerm = term.text.includes('@') || /\d/.test(term.text)
  const all = db
    .selectFrom('form_submissions')
    .where((eb) =>
      eb.or(
        isContactTerm
          ? contact
          : [...contact, sql<SqlBool>`(first_name || ' ' || last_name) ${like} ${pattern}${escape}`],
      ),
    )
  return {
    all,
    // ordered by "id + 0" for a contact term: by id itself, SQLite would walk the table in id order to
    // skip the sort rather than scan the index
    ordered: all.orderBy(isContactTerm ? sql`id + 0` : sql`id`, 'desc'),
  }
}

/** One intake with everything its details show; undefined when there is none. */
export function findIntakeById(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('form_submissions')
    .select([
      ...LIST_COLUMNS,
      'address',
      'address_line_2',
      'city',
      'state',
      'zip_code',
      'fees_incurred',
      'is_over_18',
      'is_active_military',
      'has_bankruptcy',
      'signature_method',
      'typed_signature',
      'confirmed_at',
      'disowned_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst()
}

/**
 * The intake's case per app, each with the claimant's Step 2 claim of that app and its review status:
 * the claim tied to the intake (claims.intake_id, by its Step 2 link or the same e-mail and phone;
 * claims_by_intake serves the join), the same match as the app submissions view's Step 2 Status.
 */
export function findIntakeCases(db: Kysely<Database>, intakeId: number) {
  return db
    .selectFrom('intake_cases')
    .leftJoin('claims', (join) =>
      join
        .onRef('claims.intake_id', '=', 'intake_cases.original_submission_id')
        .onRef('claims.app', '=', 'intake_cases.app'),
    )
    .select([
      'intake_cases.id as case_id',
      'intake_cases.app as app',
      'claims.id as claim_id',
      'claims.review_status as review_status',
    ])
    .where('intake_cases.original_submission_id', '=', intakeId)
    .execute()
}

/**
 * Every intake case with its intake and whether the app's Step 2 claim exists (tied to the intake),
 * newest first, in keyset pages so memory stays flat.
 */
export function findIntakeCaseExportPages(db: Kysely<Database>) {
  return keysetPages((beforeId) =>
    db
      .selectFrom('intake_cases')
      .innerJoin('form_submissions', 'form_submissions.id', 'intake_cases.original_submission_id')
      .select((eb) => [
        // the first claim, should the claimant have filed two for the app through two links
        eb
          .selectFrom('claims')
          .select((inner) => inner.fn.min('claims.id').as('id'))
          .whereRef('claims.intake_id', '=', 'intake_cases.original_submission_id')
          .whereRef('claims.app', '=', 'intake_cases.app')
          .as('claim_id'),
      ])
      .select([
        'intake_cases.id as id',
        'intake_cases.app as app',
        'intake_cases.first_name as first_name',
        'intake_cases.last_name as last_name',
        'intake_cases.email as email',
        'intake_cases.phone as phone',
        'intake_cases.created_at as created_at',
        'form_submissions.cash_advance_apps as cash_advance_apps',
      ])
      .where('intake_cases.id', '<', beforeId)
      .orderBy('intake_cases.id', 'desc')
      .limit(EXPORT_PAGE_SIZE)
      .execute(),
  )
}
