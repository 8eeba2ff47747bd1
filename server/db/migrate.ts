import { Migrator, type Kysely } from 'kysely'
import { MIGRATIONS } from '../../migrations/index.ts'
import { withoutStatementTimeout } from './create-db.ts'

/** Applies every pending migration; fails with all the errors of the run. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema before the app types exist
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // a migration over a full database (an index on a million claims) may take minutes: no statement timeout
  const { error, results = [] } = await withoutStatementTimeout(db, (db) =>
    new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } }).migrateToLatest(),
  )
  const failed = results.filter((result) => result.status === 'Error').map((result) => result.migrationName)
  if (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`migration ${failed.join(', ') || '(setup)'} failed: ${reason}`, { cause: error })
  }
}

/** The migrations this build knows that the database has not run; the readiness check wants none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export async function findPendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } })
  const migrations = await migrator.getMigrations()
  return migrations.filter((migration) => migration.executedAt === undefined).map((m) => m.name)
}
