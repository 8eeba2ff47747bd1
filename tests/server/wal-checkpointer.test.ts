import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQLITE_FILE_NAME } from '../../server/db/create-db.ts'
import { startWalCheckpointer } from '../../server/db/wal-checkpointer.ts'
import { createLogger } from '../../server/logger.ts'
import { createTestContext, type TestContext } from './helpers.ts'

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
