import { sql, type ExpressionBuilder, type Kysely } from 'kysely'
import type { AuditEntryView, AuditPerson } from '../../src/api/staff-audit.ts'
import type { Database } from '../db/database.ts'
import { EXPORT_PAGE_SIZE, keysetPages } from '../db/keyset-pages.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import type { AuditFilters } from './audit-filters.ts'

/** One page of the entries matching the filters, newest first, and how many match. */
export async function findAuditPage(
  db: Kysely<Database>,
  { filters, page, pageSize }: { filters: AuditFilters; page: number; pageSize: number },
): Promise<{ entries: AuditEntryView[]; count: number }> {
  const rows = await entryQuery(db, filters)
    .orderBy('audit_log.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()
  const { count } = await db
    .selectFrom('audit_log')
    .where((eb) => matching(eb, filters))
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return { entries: rows.map(entryFromRow), count: Number(count) }
}

/** Every entry matching the filters, newest first, a page at a time (for the CSV). */
export function findAuditExportPages(
  db: Kysely<Database>,
  filters: AuditFilters,
): AsyncGenerator<AuditEntryView[]> {
  return mapPages(
    keysetPages((beforeId) =>
      entryQuery(db, filters)
        .where('audit_log.id', '<', beforeId)
        .orderBy('audit_log.id', 'desc')
        .limit(EXPORT_PAGE_SIZE)
        .execute(),
    ),
  )
}

/** Every staff account, for the Person filter. */
export async function listAuditPeople(db: Kysely<Database>): Promise<AuditPerson[]> {
  const rows = await db
    .selectFrom('staff_accounts')
    .select(['id', 'name', 'email'])
    .orderBy('name')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({ ...row, id: Number(row.id) }))
}

/**
 * The distinct values of a column that have entries, in order. Each step asks the index for the next
 * value after the last (a loose index scan), so the cost grows with the number of values, not of entries.
 */
export async function distinctAuditValues(db: Kysely<Database>, column: 'action' | 'app'): Promise<string[]> {
  const ref = sql.ref(column)
  const { rows } = await sql<{ value: string | null }>`
    WITH RECURSIVE seen(value) AS (
      SELECT MIN(${ref}) FROM audit_log
      UNION ALL
      SELECT (SELECT MIN(${ref}) FROM audit_log WHERE ${ref} > seen.value) FROM seen
      WHERE seen.value IS NOT NULL
    )
    SELECT value FROM seen WHERE value IS NOT NULL`.execute(db)
  return rows.map(({ value }) => value!)
}

function entryQuery(db: Kysely<Database>, filters: AuditFilters) {
  return db
    .selectFrom('audit_log')
    .leftJoin('staff_accounts as account', 'account.id', 'audit_log.account_id')
    .where((eb) => matching(eb, filters))
    .select([
      'audit_log.id',
      'audit_log.at',
      'audit_log.client_address',
      'audit_log.app',
      'audit_log.action',
      'audit_log.detail',
      'audit_log.account_id',
      'audit_log.actor',
      'account.name as account_name',
      'account.email as account_email',
    ])
}

function matching(eb: ExpressionBuilder<Database, 'audit_log'>, filters: AuditFilters) {
  const conditions = []
  if (filters.accountId !== undefined) conditions.push(eb('audit_log.account_id', '=', filters.accountId))
  if (filters.app !== undefined) conditions.push(eb('audit_log.app', '=', filters.app))
  if (filters.action !== undefined) conditions.push(eb('audit_log.action', '=', filters.action))
  if (filters.fromAt !== undefined) conditions.push(eb('audit_log.at', '>=', filters.fromAt))
  if (filters.beforeAt !== undefined) conditions.push(eb('audit_log.at', '<', filters.beforeAt))
  return eb.and(conditions)
}

type EntryRow = Awaited<ReturnType<ReturnType<typeof entryQuery>['execute']>>[number]

function entryFromRow(row: EntryRow): AuditEntryView {
  return {
    id: Number(row.id),
    at: isoTimestamp(row.at),
    accountId: row.account_id === null ? null : Number(row.account_id),
    person: row.account_name ?? row.actor ?? 'unknown',
    email: row.account_email ?? row.actor,
    clientAddress: row.client_address,
    app: row.app,
    action: row.action,
    detail: row.detail,
  }
}

async function* mapPages(pages: AsyncIterable<EntryRow[]>): AsyncGenerator<AuditEntryView[]> {
  for await (const rows of pages) yield rows.map(entryFromRow)
}
