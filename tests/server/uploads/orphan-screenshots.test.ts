import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { removeOrphanScreenshots } from '../../../server/uploads/remove-orphan-screenshots.ts'
import {
  createDiskScreenshotStorage,
  type ScreenshotStorage,
} from '../../../server/uploads/screenshot-storage.ts'
import {
  clearClaims,
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  type TestContext,
  type TestDialect,
} from '../support/helpers.ts'

const SCREENSHOT = makePng({ width: 30, height: 12 })

/**
 * A test context whose claims go through ctx.app; `during` swaps some of the app's storage methods for
 * one claim (the app holds this very storage object) and puts them back afterwards.
 */
function contextFor(dialect: TestDialect) {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(dialect)
  })
  afterAll(async () => {
    await ctx?.close()
  })
  beforeEach(async () => {
    await clearClaims(ctx)
  })
  const postClaim = (phoneNumber: string) =>
    request(ctx.app)
      .post('/api/forms/brigit/submissions')
      .field('data', JSON.stringify(makeClaimData({ phoneNumber })))
      .attach('screenshot', SCREENSHOT, 'statement.png')
  const during = async <T>(
    swap: (disk: ScreenshotStorage) => Partial<ScreenshotStorage>,
    run: () => Promise<T>,
  ): Promise<T> => {
    const disk = { ...ctx.storage }
    Object.assign(ctx.storage, swap(disk))
    try {
      return await run()
    } finally {
      Object.assign(ctx.storage, disk)
    }
  }
  return { ctx: () => ctx, postClaim, during }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the start-up screenshot recovery`, () => {
    const { ctx, postClaim, during } = contextFor(dialect)
    const sweep = () => removeOrphanScreenshots({ db: ctx().db, dialect, storage: ctx().storage })

    it('removes the screenshot files no claim names, and keeps claimed ones and files it did not write', async () => {
      expect((await postClaim('(555) 600-0001')).status).toBe(201)
      const [claimed] = listScreenshotFiles(ctx().dataDir)
      // what a crash between a file and its row leaves, in two apps' folders
      const orphans = [
        await ctx().storage.save({ app: 'brigit', extension: 'png', bytes: SCREENSHOT }),
        await ctx().storage.save({ app: 'earnin', extension: 'jpg', bytes: SCREENSHOT.subarray(0, 10) }),
      ]
      fs.writeFileSync(path.join(ctx().dataDir, 'screenshots', 'brigit-screenshots', 'notes.txt'), 'mine')

      expect(await sweep()).toEqual({ files: 3, removed: 2 })

      expect(listScreenshotFiles(ctx().dataDir)).toEqual([claimed, 'brigit-screenshots/notes.txt'])
      expect(listScreenshotFiles(ctx().dataDir)).not.toContain(orphans[0])
      expect(await sweep()).toEqual({ files: 1, removed: 0 })
    })

    it('refuses a claim whose screenshot another process removed at its start-up before the claim committed', async () => {
      const res = await during(
        (disk) => ({
          async save(options) {
            const key = await disk.save(options)
            await sweep() // another server process starting now sees a file with no row yet
            return key
          },
        }),
        () => postClaim('(555) 600-0002'),
      )

      expect(res.status).toBe(500)
      expect(await countClaims(ctx().db)).toBe(0)
      expect(listScreenshotFiles(ctx().dataDir)).toEqual([])
      // nothing was kept, so the claimant can send it again
      expect((await postClaim('(555) 600-0002')).status).toBe(201)
    })
  })
}

describe('postgres: the start-up screenshot recovery next to a claim being committed', () => {
  const { ctx, postClaim, during } = contextFor('postgres')

  it('waits for the claim to commit and keeps its screenshot', async () => {
    let inTransaction!: () => void
    const reachedCheck = new Promise<void>((resolve) => (inTransaction = resolve))
    let commit!: () => void
    const committed = new Promise<void>((resolve) => (commit = resolve))
    // holds the claim's transaction open (rows inserted, not committed) at its file check
    const claim = during(
      (disk) => ({
        async has(key) {
          inTransaction()
          await committed
          return disk.has(key)
        },
      }),
      () => postClaim('(555) 600-0003').then((res) => res),
    )
    await reachedCheck
    const disk = createDiskScreenshotStorage(ctx().dataDir)
    const sweep = removeOrphanScreenshots({ db: ctx().db, dialect: 'postgres', storage: disk })
    // the sweep saw a file with no committed row; it must now wait on the claims lock, not remove it
    for (;;) {
      const { rows } = await sql<{ waiting: string }>`
        SELECT count(*)::text AS waiting FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'
          AND query LIKE 'LOCK TABLE claims%'`.execute(ctx().db)
      if (rows[0]?.waiting !== '0') break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    commit()

    expect((await claim).status).toBe(201)
    expect(await sweep).toEqual({ files: 1, removed: 0 })
    const [row] = await ctx().db.selectFrom('claims').select('screenshot_key').execute()
    expect(listScreenshotFiles(ctx().dataDir)).toEqual([row!.screenshot_key])
  })
})
