import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/** FTS5's defaults, put back by down(). */
const DEFAULT_AUTOMERGE = 4
const DEFAULT_CRISISMERGE = 16

/**
 * SQLite's search index merges its segments 16 at a time while claims come in, rather than FTS5's 4.
 * Every commit adds a small segment to claims_search (one per group of claims committed together), and
 * FTS5 merges them as they pile up, so a claim's search entries were rewritten once per level, about 8
 * levels deep at a million claims. That merging was most of what the index cost a claim: on a copy of the
 * million-claim seed the server took 510 claims/s, 622 with no search index at all, and 599 at 16 a
 * level. The merging is not dropped but moved: once no claim has been committed for a second, the WAL
 * checkpointer's thread merges the levels of 4 or more segments (wal-checkpoint-worker.cjs), so staff
 * searches read as few segments as before. crisismerge (a level merged all at once) stays well above.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) return
  await setMerges(db, { automerge: 16, crisismerge: 64 })
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) return
  await setMerges(db, { automerge: DEFAULT_AUTOMERGE, crisismerge: DEFAULT_CRISISMERGE })
}

async function setMerges(
  db: Kysely<unknown>,
  { automerge, crisismerge }: { automerge: number; crisismerge: number },
) {
  // FTS5's settings are kept in the index itself (claims_search_config)
  await sql`INSERT INTO claims_search (claims_search, rank) VALUES ('automerge', ${sql.lit(automerge)})`.execute(
    db,
  )
  await sql`INSERT INTO claims_search (claims_search, rank) VALUES ('crisismerge', ${sql.lit(crisismerge)})`.execute(
    db,
  )
}
