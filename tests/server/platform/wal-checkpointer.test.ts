import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import { startWalCheckpointer } from '../../../server/db/wal-checkpointer.ts'
import { createLogger } from '../../../server/logger.ts'
import { createTestContext, insertClaim, type TestContext } from '../support/helpers.ts'

const PAGE = 4096

async function autocheckpoint(ctx: TestContext): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(ctx.db)
  return rows[0]!.wal_autocheckpoint
}

describe('sqlite: the WAL checkpointer thread', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext('sqlite')
    await sql`create table filler (body blob not null)`.execute(ctx.db)
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('copies the log into the database file in the background, the server checkpointing only every 2,000 pages', async () => {
    const file = path.join(ctx.dataDir, SQLITE_FILE_NAME)
    const before = fs.statSync(file).size
    const checkpointer = await startWalCheckpointer({ db: ctx.db, file, logger: createLogger('silent') })
    try {
      expect(await autocheckpoint(ctx)).toBe(2000)
      // 1,000 pages: SQLite alone would leave them all in the log until the 2,000th
      for (let i = 0; i < 50; i++)
        await sql`insert into filler (body) values (zeroblob(${20 * PAGE}))`.execute(ctx.db)
      const deadline = Date.now() + 5_000
      while (fs.statSync(file).size - before < 1000 * PAGE && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      expect(fs.statSync(file).size - before).toBeGreaterThanOrEqual(1000 * PAGE)
    } finally {
      await checkpointer.stop()
    }
  })

  it('merges the search index once the server is quiet, so searches read few segments', async () => {
    const segments = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from claims_search_idx`.execute(ctx.db)).rows[0]!.n,
      )
    const checkpointer = await startWalCheckpointer({
      db: ctx.db,
      file: path.join(ctx.dataDir, SQLITE_FILE_NAME),
      logger: createLogger('silent'),
    })
    try {
      // each claim committed on its own adds a segment; FTS5 leaves up to 15 on a level (migration 1900)
      for (let i = 0; i < 40; i++) {
        await insertClaim(ctx.db, {
          app: 'brigit',
          created_at: new Date().toISOString(),
          first_name: 'Ada',
          last_name: `Okafor${i}`,
          email: `ada.${i}@example.com`,
          phone_number: `(555) 201-${1000 + i}`,
          cash_advance_count: 1,
          membership_months: 1,
          screenshot_key: `brigit-screenshots/${i}.png`,
          screenshot_type: 'image/png',
        })
      }
      expect(await segments()).toBeGreaterThan(10)
      const deadline = Date.now() + 10_000
      while ((await segments()) > 3 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(await segments()).toBeLessThanOrEqual(3)
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from claims_search where claims_search match '"Okafor3"'`.execute(ctx.db)
      expect(Number(rows[0]!.n)).toBe(11) // Okafor3 and Okafor30 to Okafor39
    } finally {
      await checkpointer.stop()
    }
  })

  it('gives checkpointing back to the server when its thread cannot work', async () => {
    const checkpointer = await startWalCheckpointer({
      db: ctx.db,
      file: path.join(ctx.dataDir, 'no-such-folder', SQLITE_FILE_NAME),
      logger: createLogger('silent'),
    })
    const deadline = Date.now() + 5_000
    while ((await autocheckpoint(ctx)) !== 1000 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await autocheckpoint(ctx)).toBe(1000)
    await checkpointer.stop()
  })
})
