import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  MAX_UPLOAD_BYTES,
  NOT_AN_IMAGE_MESSAGE,
  SIGNATURE_REQUIRED_MESSAGE,
} from '../../../src/claim-messages.ts'
import { createDb } from '../../../server/db/create-db.ts'
import {
  createDuplicateScreenshots,
  type DuplicateScreenshots,
} from '../../../server/duplicates/duplicate-screenshots.ts'
import { screenshotHashThread, type ScreenshotHasher } from '../../../server/duplicates/screenshot-hasher.ts'
import { createLogger } from '../../../server/logger.ts'
import { createScreenshotStorage } from '../../../server/uploads/create-screenshot-storage.ts'
import { claimRow } from '../support/claim-fixtures.ts'
import {
  clearClaims,
  countClaims,
  createPostgresDatabase,
  createTestContext,
  DIALECTS,
  insertClaim,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  pngDataUrl,
  type TestContext,
} from '../support/helpers.ts'
import {
  hugeFrameJpeg,
  interlacedZerosPng,
  largeNoisePng,
  secondHeaderBitmapPng,
  secondHeaderPng,
  secondHeaderSignature,
} from '../support/image-bombs.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'

const BOMBS = [
  {
    what: 'a 1 × 1 interlaced PNG of 4 GB of deflated zeros',
    name: 'statement.png',
    bytes: interlacedZerosPng(),
  },
  { what: 'a 1 × 1 PNG with a second, 6000 × 6000 IHDR', name: 'statement.png', bytes: secondHeaderPng() },
  { what: 'a JPEG whose frame header says 6000 × 6000', name: 'statement.jpg', bytes: hugeFrameJpeg() },
]
// as large as the form takes, of pixels that do not compress: a real picture, 1,860 px square
const LARGE_PNG = largeNoisePng(MAX_UPLOAD_BYTES)
/**
 * The most a server process may have held at once: a few hundred MB. It peaks near 370 MB starting up
 * (tsx compiling, its threads) and adds about 110 MB for the 10 MB picture's check; one of the bombs
 * decoded takes gigabytes.
 */
const MAX_RESIDENT_BYTES = 640 * 1024 * 1024

for (const dialect of DIALECTS) {
  describe(`${dialect}: pictures that decode to far more than they weigh`, () => {
    let ctx: TestContext
    let phone = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    function postClaim(screenshot: { bytes: Buffer; name: string }, overrides: Record<string, unknown> = {}) {
      phone += 1
      const data = makeClaimData({ phoneNumber: `(415) 555-${String(2000 + phone)}`, ...overrides })
      return request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(data))
        .attach('screenshot', screenshot.bytes, screenshot.name)
    }

    for (const bomb of BOMBS) {
      it(`refuses ${bomb.what} as not an image, and stores nothing`, async () => {
        const res = await postClaim(bomb).expect(422)
        expect(res.body.error.fields).toEqual({ screenshotFile: { __errors: [NOT_AN_IMAGE_MESSAGE] } })
        expect(await countClaims(ctx.db)).toBe(0)
        expect(listScreenshotFiles(ctx.dataDir)).toEqual([])
      })
    }

    it('takes a 10 MB PNG of a real picture', async () => {
      expect(LARGE_PNG.length).toBeGreaterThan(MAX_UPLOAD_BYTES * 0.98)
      await postClaim({ bytes: LARGE_PNG, name: 'statement.png' }).expect(201)
      expect(await countClaims(ctx.db)).toBe(1)
    })

    it('refuses a claim and an intake signed with a PNG whose second IHDR is 4000 × 4000', async () => {
      const signature = pngDataUrl(secondHeaderSignature())
      const claim = await postClaim(
        { bytes: makePng({ width: 20, height: 20 }), name: 's.png' },
        { signature },
      ).expect(422)
      expect(claim.body.error.fields).toEqual({ signature: { __errors: [SIGNATURE_REQUIRED_MESSAGE] } })
      await request(ctx.app).post('/api/intake').send(makeIntakeData({ signature })).expect(422)
      expect(await countClaims(ctx.db)).toBe(0)
      expect(await ctx.db.selectFrom('form_submissions').select('id').execute()).toEqual([])
    })

    describe('the duplicate check', () => {
      let sweeper: DuplicateScreenshots
      let fingerprinted = 0
      const thread = screenshotHashThread()
      // the real hashing thread, counted
      const hasher: ScreenshotHasher = {
        fingerprint: (bytes) => {
          fingerprinted += 1
          return thread.fingerprint(bytes)
        },
        stop: () => thread.stop(),
      }

      beforeAll(() => {
        sweeper = createDuplicateScreenshots({
          db: ctx.db,
          storage: ctx.storage,
          hasher,
          logger: createLogger('silent'),
        })
      })
      afterAll(async () => {
        await sweeper?.stop()
      })

      async function statusOf(claimId: number) {
        const hash = await ctx.db
          .selectFrom('screenshot_hashes')
          .select('status')
          .where('claim_id', '=', claimId)
          .executeTakeFirst()
        const queued = await ctx.db
          .selectFrom('screenshot_checks')
          .select('claim_id')
          .where('claim_id', '=', claimId)
          .executeTakeFirst()
        return { status: hash?.status, queued: queued !== undefined }
      }

      it('gives a check taken three times without an outcome up as unreadable, and never takes it again', async () => {
        const key = await ctx.storage.save({
          app: 'brigit',
          extension: 'png',
          bytes: makePng({ width: 40, height: 30 }),
        })
        const { id } = await insertClaim(ctx.db, { ...claimRow('(415) 555-0301'), screenshot_key: key })
        // three processes took it and died before recording anything
        await ctx.db
          .updateTable('screenshot_checks')
          .set({ attempts: 3, due_at: 0 })
          .where('claim_id', '=', id)
          .execute()
        fingerprinted = 0
        sweeper.wake()
        await sweeper.settled()

        expect(await statusOf(id)).toEqual({ status: 'unreadable', queued: false })
        expect(fingerprinted).toBe(0)
      })

      it('records a picture over the pixel cap, stored before the door refused it, as unreadable', async () => {
        const key = await ctx.storage.save({
          app: 'brigit',
          extension: 'png',
          bytes: secondHeaderBitmapPng(),
        })
        const { id } = await insertClaim(ctx.db, { ...claimRow('(415) 555-0302'), screenshot_key: key })
        sweeper.wake()
        await sweeper.settled()

        expect(await statusOf(id)).toEqual({ status: 'unreadable', queued: false })
      })
    })
  })

  describe(`${dialect}: a server process sent pictures that decode to far more than they weigh`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-bombs-'))
    let database: { url: string; drop(): Promise<void> } | undefined
    let server: ServerProcess

    beforeAll(async () => {
      database = dialect === 'postgres' ? await createPostgresDatabase() : undefined
      server = await startServerProcess({ dataDir, databaseUrl: database?.url })
    })
    afterAll(async () => {
      await killServerProcesses()
      await database?.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    })

    async function fileClaim(n: number, file: { bytes: Buffer; name: string }): Promise<number> {
      const form = new FormData()
      const data = makeClaimData({
        email: `bomb${n}@example.com`,
        phoneNumber: `(555) 430-${String(n).padStart(4, '0')}`,
      })
      form.append('data', JSON.stringify(data))
      form.append('screenshot', new Blob([new Uint8Array(file.bytes)]), file.name)
      const res = await fetch(`${server.url}/api/forms/brigit/submissions`, { method: 'POST', body: form })
      await res.arrayBuffer()
      return res.status
    }

    it('refuses the bombs, checks what it stored, stays within a few hundred MB, and takes claims after', async () => {
      const { db } = createDb({ databaseUrl: database?.url, dataDir })
      const storage = createScreenshotStorage({ dataDir, s3: undefined })
      try {
        for (const [n, bomb] of BOMBS.entries()) expect(await fileClaim(n, bomb)).toBe(422)
        // a bomb filed before the door refused it, waiting in the duplicate check's queue
        const key = await storage.save({ app: 'brigit', extension: 'png', bytes: interlacedZerosPng() })
        const stored = await insertClaim(db, { ...claimRow('(555) 430-0100'), screenshot_key: key })
        expect(await fileClaim(10, { bytes: LARGE_PNG, name: 'statement.png' })).toBe(201)

        // the check is done when its queue is empty (every claim in it is woken for by the last claim)
        for (;;) {
          const queued = await db.selectFrom('screenshot_checks').select('claim_id').execute()
          if (queued.length === 0) break
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
        const statuses = await db
          .selectFrom('screenshot_hashes')
          .select(['claim_id', 'status'])
          .orderBy('claim_id')
          .execute()
        expect(statuses.map((row) => row.status)).toEqual(['unreadable', 'hashed'])
        expect(Number(statuses[0]!.claim_id)).toBe(stored.id)

        const highWater = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${server.pid}/status`, 'utf8'))
        expect(Number(highWater![1]) * 1024).toBeLessThan(MAX_RESIDENT_BYTES)
        expect(
          await fileClaim(11, { bytes: makePng({ width: 30, height: 20 }), name: 'statement.png' }),
        ).toBe(201)
      } finally {
        await storage.close()
        await db.destroy()
      }
    })
  })
}
