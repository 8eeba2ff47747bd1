import { Migrator, type Kysely } from 'kysely'
import { MIGRATIONS } from '../../migrations/index.ts'

/** Applies every pending migration; fails with all the errors of the run. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema before the app types exist
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } })
  const { error, results = [] } = await migrator.migrateToLatest()
  const failed = results.filter((result) => result.status === 'Error').map((result) => result.migrationName)
  if (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(`migration ${failed.join(', ') || '(setup)'} failed: ${reason}`, { cause: error })
  }
}
