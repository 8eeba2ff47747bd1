import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import type { VisibleApps } from '../../src/api/staff.ts'
import type { Database } from '../db/database.ts'
import { sqliteValueRows } from '../db/create-db.ts'
import { EXPORT_PAGE_SIZE } from '../db/keyset-pages.ts'
import type { ListOrder } from '../platform/list-query.ts'
import {
  direction,
  CLAIM_LIST_COLUMNS,
  type ClaimCondition,
  type ClaimsPage,
  type SubmissionValues,
} from './claim-list.ts'

/**
 * A condition on screenshot_matches: the other claim is in one of these apps. A staff account limited
 * to some apps is told of a match only when it may see the other claim: neither its id nor that there
 * is one (a claim whose only match it may not see is not flagged for it).
 */
function otherClaimIn(apps: readonly string[]): RawBuilder<SqlBool> {
  // no app at all: IN (NULL) holds for no claim, fail-closed
  return sql<SqlBool>`EXISTS (SELECT 1 FROM claims AS other WHERE other.id = screenshot_matches.other_claim_id
    AND other.app IN (${sql.join(apps.length > 0 ? apps : [null])}))`
}

/** The matches the apps given may see: every one for 'every'. */
function visibleMatches(db: Kysely<Database>, apps: VisibleApps) {
  const matches = db.selectFrom('screenshot_matches')
  return apps === 'every' ? matches : matches.where(otherClaimIn(apps))
}

/**
 * The flagged claims of an app: those in screenshot_matches with a match in the apps given. The query
 * starts from the matches (a few claims in a million, read in their primary key's order) and looks each
 * claim up by its id, so its cost follows the flagged claims, not the app's: CROSS JOIN keeps SQLite to
 * that order.
 */
function flaggedClaims(
  db: Kysely<Database>,
  { app, where, apps }: { app: string; where: ClaimCondition | undefined; apps: VisibleApps },
) {
  const claims = db
    .selectFrom(visibleMatches(db, apps).select('screenshot_matches.claim_id').distinct().as('flagged'))
    .crossJoin('claims')
    .whereRef('claims.id', '=', 'flagged.claim_id')
    .where('claims.app', '=', app)
  return where ? claims.where(where) : claims
}

/**
 * A page of the app's claims flagged by a match in `apps`, meeting the condition (any when undefined),
 * in the order asked, and their exact count: flagged claims are few, so it is never capped.
 */
export async function flaggedPage(
  db: Kysely<Database>,
  {
    app,
    where,
    apps,
    offset,
    pageSize,
    order,
  }: {
    app: string
    where: ClaimCondition | undefined
    apps: VisibleApps
    offset: number
    pageSize: number
    order: ListOrder
  },
): Promise<Omit<ClaimsPage, 'total'>> {
  const found = await flaggedClaims(db, { app, where, apps })
    .select([...CLAIM_LIST_COLUMNS, sql<number | string | bigint>`count(*) OVER ()`.as('match_count')])
    .orderBy('claims.created_at', direction(order))
    .orderBy('claims.id', direction(order))
    .limit(pageSize)
    .offset(offset)
    .execute()
  const rows = found.map(({ match_count: _count, ...row }) => row)
  if (found.length > 0 || offset === 0) {
    return { rows, count: Number(found[0]?.match_count ?? 0), isCountCapped: false }
  }
  const { count } = await flaggedClaims(db, { app, where, apps })
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, count: Number(count), isCountCapped: false }
}

/**
 * SQLite: every claim of the app flagged by a match in `apps`, meeting the condition, newest id first,
 * EXPORT_PAGE_SIZE at a time, as SubmissionValues.
 */
export async function* flaggedExportPages(
  db: Kysely<Database>,
  { app, where, apps }: { app: string; where: ClaimCondition | undefined; apps: VisibleApps },
): AsyncGenerator<SubmissionValues[]> {
  const ids = (
    await flaggedClaims(db, { app, where, apps }).select('claims.id').orderBy('claims.id', 'desc').execute()
  ).map(({ id }) => Number(id))
  for (let start = 0; start < ids.length; start += EXPORT_PAGE_SIZE) {
    yield sqliteValueRows<SubmissionValues>(
      db,
      db
        .selectFrom('claims')
        .select(CLAIM_LIST_COLUMNS)
        .where('claims.id', 'in', ids.slice(start, start + EXPORT_PAGE_SIZE))
        .orderBy('claims.id', 'desc')
        .compile(),
    )
  }
}

/**
 * For each of these claims with a duplicate screenshot, the other claims' ids, lowest first: only those
 * in the apps given, so that an account limited to some apps never learns another app's claim ids.
 */
export async function findDuplicateIds(
  db: Kysely<Database>,
  { claimIds, apps }: { claimIds: number[]; apps: VisibleApps },
): Promise<Map<number, number[]>> {
  const byClaim = new Map<number, number[]>()
  if (claimIds.length === 0) return byClaim
  const rows = await visibleMatches(db, apps)
    .select(['screenshot_matches.claim_id', 'screenshot_matches.other_claim_id'])
    .where('screenshot_matches.claim_id', 'in', claimIds)
    .orderBy('screenshot_matches.claim_id')
    .orderBy('screenshot_matches.other_claim_id')
    .execute()
  for (const { claim_id, other_claim_id } of rows) {
    const list = byClaim.get(Number(claim_id)) ?? []
    list.push(Number(other_claim_id))
    byClaim.set(Number(claim_id), list)
  }
  return byClaim
}

/**
 * For each claim with an id from `lowest` to `highest` that has a duplicate screenshot, the other
 * claims' ids in the apps given, lowest first: one range read of screenshot_matches' primary key for a
 * whole page of an export (a list of the page's ids would be thousands of parameters to bind and look up
 * one by one).
 */
export async function findDuplicateIdsBetween(
  db: Kysely<Database>,
  { lowest, highest, apps }: { lowest: number; highest: number; apps: VisibleApps },
): Promise<Map<number, number[]>> {
  const rows = await visibleMatches(db, apps)
    .select(['screenshot_matches.claim_id', 'screenshot_matches.other_claim_id'])
    .where('screenshot_matches.claim_id', '>=', lowest)
    .where('screenshot_matches.claim_id', '<=', highest)
    .orderBy('screenshot_matches.claim_id')
    .orderBy('screenshot_matches.other_claim_id')
    .execute()
  const byClaim = new Map<number, number[]>()
  for (const { claim_id, other_claim_id } of rows) {
    const list = byClaim.get(Number(claim_id))
    if (list) list.push(Number(other_claim_id))
    else byClaim.set(Number(claim_id), [Number(other_claim_id)])
  }
  return byClaim
}

/** Whether a claim has a duplicate screenshot in these apps (a row in screenshot_matches), as a condition on claims. */
export function isFlaggedIn(apps: VisibleApps): RawBuilder<SqlBool> {
  const visible = apps === 'every' ? sql`` : sql`AND ${otherClaimIn(apps)}`
  return sql<SqlBool>`EXISTS (SELECT 1 FROM screenshot_matches WHERE screenshot_matches.claim_id = claims.id ${visible})`
}

/**
 * The CSV's Flagged and Flagged Claim IDs cells in PostgreSQL (see claimCsvRecordSql): 'Yes' and
 * the ids of the duplicates in these apps (as findDuplicateIds), lowest first, or 'No' and nothing. The
 * IN is uncorrelated, so PostgreSQL hashes the flagged claims' ids once and each claim costs a hash
 * probe; the ids are read only for a flagged claim.
 */
export function flaggedCellsSql(apps: VisibleApps): RawBuilder<string> {
  const inApps = apps === 'every' ? sql`` : sql`WHERE ${otherClaimIn(apps)}`
  const inAppsAnd = apps === 'every' ? sql`` : sql`AND ${otherClaimIn(apps)}`
  return sql<string>`CASE WHEN claims.id IN (SELECT screenshot_matches.claim_id FROM screenshot_matches ${inApps})
  THEN 'Yes,' || (
    SELECT string_agg(screenshot_matches.other_claim_id::text, ' ' ORDER BY screenshot_matches.other_claim_id)
    FROM screenshot_matches WHERE screenshot_matches.claim_id = claims.id ${inAppsAnd})
  ELSE 'No,' END`
}
