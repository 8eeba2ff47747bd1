import { PostgresAdapter, type Kysely } from 'kysely'

/** Whether the database is PostgreSQL (else SQLite): the one place the server and the migrations ask. */
export function isPostgresDb<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}
