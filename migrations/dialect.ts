import { PostgresAdapter, type Kysely } from 'kysely'

/** Whether a migration runs on PostgreSQL (else SQLite). */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}
