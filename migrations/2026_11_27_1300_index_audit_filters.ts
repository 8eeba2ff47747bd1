import type { Kysely } from 'kysely'

const FILTERED_COLUMNS = ['account_id', 'action', 'app'] as const

/**
 * The audit page's filters (person, action, app), each read newest first: an index on the column and
 * the id answers a page of one person's or one action's entries without reading the others, and lets
 * the App and Action selects list their values by a loose index scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of FILTERED_COLUMNS) {
    await db.schema.createIndex(`audit_log_${column}`).on('audit_log').columns([column, 'id']).execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of FILTERED_COLUMNS) await db.schema.dropIndex(`audit_log_${column}`).execute()
}
