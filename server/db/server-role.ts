import { sql, type Kysely } from 'kysely'
import type { Database } from './database.ts'

/** What the sealed evidence is kept in: the server's role may add to these tables, never change them. */
const SEALED_TABLES = ['evidence_ledger', 'agreement_records'] as const

/**
 * The settings for work only the tables' owner may do (migrations, purge-expired): DATABASE_OWNER_URL
 * when it is set, else the server's own DATABASE_URL (which then owns the tables).
 */
export function asOwner<T extends { databaseUrl: string | undefined; databaseOwnerUrl: string | undefined }>(
  config: T,
): T {
  return config.databaseOwnerUrl ? { ...config, databaseUrl: config.databaseOwnerUrl } : config
}

/**
 * Run as the owner after each migration: DATABASE_URL's role may read and write every table but the
 * sealed ones, which it may only read and add to. Not owning them, it cannot drop their triggers
 * either, so a stolen server password cannot rewrite the evidence; purge-expired runs as the owner.
 */
export async function grantServerRole(owner: Kysely<Database>, serverDatabaseUrl: string): Promise<void> {
  const role = sql.id(decodeURIComponent(new URL(serverDatabaseUrl).username))
  const sealed = sql.join(SEALED_TABLES.map((table) => sql.id(table)))
  await owner.transaction().execute(async (trx) => {
    await sql`GRANT USAGE ON SCHEMA public TO ${role}`.execute(trx)
    await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`.execute(trx)
    await sql`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`.execute(trx)
    await sql`REVOKE UPDATE, DELETE, TRUNCATE ON ${sealed} FROM ${role}`.execute(trx)
  })
}
