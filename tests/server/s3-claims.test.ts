import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { purgeExpired } from '../../server/ops/purge-expired.ts'
import { removeOrphanScreenshots } from '../../server/uploads/remove-orphan-screenshots.ts'
import {
  clearClaims,
  countClaims,
  createTestContext,
  listScreenshotFiles,
  loginStaff,
  makeClaimData,
  makePng,
  type TestContext,
} from './helpers.ts'
import { startS3Process, type S3Process } from './s3-process.ts'
import { setLegalHold } from '../../server/evidence/legal-hold.ts'

const SCREENSHOT = makePng({ width: 40, height: 20 })
const SITE = 'claims.test'

/** The same claim path as on disk, with S3_BUCKET set: every screenshot goes to the bucket. */
describe('screenshots in an S3 bucket', () => {
  let s3: S3Process
  let ctx: TestContext
  let staff: string
  beforeAll(async () => {
    s3 = await startS3Process()
    ctx = await createTestContext('sqlite', { s3: s3.settings })
    staff = await loginStaff(ctx.app, { site: SITE })
  })
  afterAll(async () => {
    await ctx?.close()
    await s3?.close()
  })
  beforeEach(async () => {
    await s3.restart()
    await clearClaims(ctx)
    for (const key of await ctx.storage.keys('brigit')) await ctx.storage.remove(key)
  })

  const postClaim = (phoneNumber: string) =>
    request(ctx.app)
      .post('/api/forms/brigit/submissions')
      .field('data', JSON.stringify(makeClaimData({ phoneNumber })))
      .attach('screenshot', SCREENSHOT, 'statement.png')

  const claimKey = async (id: number) =>
    (
      await ctx.db
        .selectFrom('claims')
        .select('screenshot_key')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).screenshot_key

  it('stores the screenshot in the bucket, nothing on disk, and staff see it with the same headers', async () => {
    const res = await postClaim('(555) 301-0001')
    expect(res.status).toBe(201)
    const key = await claimKey(res.body.id as number)
    expect(await ctx.storage.keys('brigit')).toEqual([key])
    expect(listScreenshotFiles(ctx.dataDir)).toEqual([])

    const view = await request(ctx.app)
      .get(`/api/staff/claims/${res.body.id}/screenshot`)
      .set({ Host: SITE, Cookie: staff })
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => done(null, Buffer.concat(chunks)))
      })
    expect(view.status).toBe(200)
    expect(Buffer.compare(view.body as Buffer, SCREENSHOT)).toBe(0)
    expect(view.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(SCREENSHOT.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'content-security-policy': "default-src 'none'; img-src 'self'; sandbox",
    })
  })

  it('removes the object of a claim that does not commit (a second claim for the same phone)', async () => {
    expect((await postClaim('(555) 301-0002')).status).toBe(201)
    const again = await postClaim('(555) 301-0002')
    expect(again.status).toBe(409)
    expect(await ctx.storage.keys('brigit')).toHaveLength(1)
    expect(await countClaims(ctx.db)).toBe(1)
  })

  it('answers 503 naming the store while the bucket is unreachable, keeps no row, and works when it is back', async () => {
    await s3.stop()
    const refused = await postClaim('(555) 301-0003')
    expect(refused.status).toBe(503)
    expect(refused.headers['retry-after']).toBe('30')
    expect(refused.body).toEqual({
      error: {
        code: 'STORE_UNAVAILABLE',
        message: 'the screenshot store cannot be reached; please try again in a few minutes',
      },
    })
    expect(await countClaims(ctx.db)).toBe(0)

    await s3.restart()
    expect((await postClaim('(555) 301-0003')).status).toBe(201)
    expect(await ctx.storage.keys('brigit')).toHaveLength(1)
  })

  it('sweeps objects no claim names and purges an expired claim’s object', async () => {
    const kept = await postClaim('(555) 301-0004')
    const expired = await postClaim('(555) 301-0005')
    const orphan = await ctx.storage.save({ app: 'brigit', extension: 'png', bytes: SCREENSHOT })
    const keptKey = await claimKey(kept.body.id as number)
    const expiredKey = await claimKey(expired.body.id as number)

    const swept = await removeOrphanScreenshots({ db: ctx.db, dialect: 'sqlite', storage: ctx.storage })
    expect(swept).toMatchObject({ removed: 1 })
    expect((await ctx.storage.keys('brigit')).sort()).toEqual([keptKey, expiredKey].sort())
    expect(await ctx.storage.has(orphan)).toBe(false)

    // the bucket checks each request's time, so the clock stays: the purge runs past the retention
    // period instead, and a legal hold keeps the other claim
    await setLegalHold({
      db: ctx.db,
      evidenceKey: ctx.evidenceKey,
      kind: 'claim',
      id: kept.body.id as number,
      isHeld: true,
      reason: 'litigation hold',
      actor: 'test',
    })
    const later = new Date()
    later.setUTCFullYear(later.getUTCFullYear() + FIRM_SETTINGS.retentionYears + 1)
    const purged = await purgeExpired({
      db: ctx.db,
      storage: ctx.storage,
      evidenceKey: ctx.evidenceKey,
      retentionYears: FIRM_SETTINGS.retentionYears,
      now: later,
      dryRun: false,
    })
    expect(purged).toMatchObject({ deletedClaims: 1, removedFiles: 1 })
    expect(await ctx.storage.keys('brigit')).toEqual([keptKey])
  })
})
