import { sql, type Kysely } from 'kysely'
import type { Database, Dialect } from '../db/database.ts'
import type { ScreenshotStorage } from './screenshot-storage.ts'

export interface OrphanSweep {
  /** Screenshot files looked at. */
  files: number
  /** Files removed because no claim row names them. */
  removed: number
}

const BATCH = 500

/**
 * The start-up recovery: removes every screenshot file that no claim row names. A claim's file is
 * written (and synced) before its row commits, so a crash in between, or purge-expired dying between
 * its rows and its files, leaves such a file; the row is the truth.
 *
 * Another server process on the same data may be between writing a file and committing its row. Files
 * are removed only while claim inserts are held off (the claims table's write lock), after checking
 * again that no row names them; the claim store checks inside its own transaction, after its insert, that
 * its file is still there. So a file is either removed before its claim's insert (which then fails
 * without a 2xx) or kept.
 */
export async function removeOrphanScreenshots({
  db,
  dialect,
  storage,
}: {
  db: Kysely<Database>
  dialect: Dialect
  storage: ScreenshotStorage
}): Promise<OrphanSweep> {
  let files = 0
  const candidates: string[] = []
  for (const app of await storage.apps()) {
    const keys = await storage.keys(app)
    files += keys.length
    if (keys.length === 0) continue
    const named = await namedKeys(db, app)
    candidates.push(...keys.filter((key) => !named.has(key)))
  }
  if (candidates.length === 0) return { files, removed: 0 }

  const removed = await withClaimInsertsHeld({ db, dialect }, async (conn) => {
    let count = 0
    for (let start = 0; start < candidates.length; start += BATCH) {
      const batch = candidates.slice(start, start + BATCH)
      const named = await namedKeys(conn, undefined, batch)
      for (const key of batch) {
        if (named.has(key)) continue
        await storage.remove(key)
        count += 1
      }
    }
    return count
  })
  return { files, removed }
}

/** The keys a claim or a claimant's amendment names: of an app, or among `keys`. */
async function namedKeys(
  db: Kysely<Database>,
  app: string | undefined,
  keys?: string[],
): Promise<Set<string>> {
  let claims = db.selectFrom('claims').select('screenshot_key')
  let amendments = db
    .selectFrom('claim_amendments')
    .select('screenshot_key')
    .where('screenshot_key', 'is not', null)
  if (app !== undefined) {
    claims = claims.where('app', '=', app)
    amendments = amendments.where('app', '=', app)
  }
  if (keys !== undefined) {
    claims = claims.where('screenshot_key', 'in', keys)
    amendments = amendments.where('screenshot_key', 'in', keys)
  }
  const rows = [...(await claims.execute()), ...(await amendments.execute())]
  return new Set(rows.map((row) => row.screenshot_key!))
}

/** Runs `work` in a transaction during which no process can insert a claim. */
async function withClaimInsertsHeld<T>(
  { db, dialect }: { db: Kysely<Database>; dialect: Dialect },
  work: (conn: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    if (dialect === 'postgres') {
      await sql`BEGIN`.execute(conn)
      // SHARE conflicts with the ROW EXCLUSIVE an INSERT takes: waits for running inserts, holds off new ones
      await sql`LOCK TABLE claims IN SHARE MODE`.execute(conn)
    } else {
      // SQLite has one writer: IMMEDIATE takes the write lock now, and reads see every commit before it
      await sql`BEGIN IMMEDIATE`.execute(conn)
    }
    try {
      const result = await work(conn)
      await sql`COMMIT`.execute(conn)
      return result
    } catch (error) {
      await sql`ROLLBACK`.execute(conn)
      throw error
    }
  })
}
