import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import request from 'supertest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Batch } from '../../../src/api/filing-batches.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { purgeExpired } from '../../../server/ops/purge-expired.ts'
import { removeOrphanScreenshots } from '../../../server/uploads/remove-orphan-screenshots.ts'
import {
  clearClaims,
  countClaims,
  createTestContext,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { seedClaim } from '../support/claims.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { startS3Process, type S3Process } from '../support/s3-process.ts'
import { asBuffer } from '../support/unzip.ts'
import { setLegalHold } from '../../../server/evidence/legal-hold.ts'

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

  it('keeps an expired claim’s object when it no longer matches the sealed hash, and purges an unchanged one', async () => {
    const replaced = await postClaim('(555) 301-0006')
    const unchanged = await postClaim('(555) 301-0007')
    const replacedKey = await claimKey(replaced.body.id as number)
    const unchangedKey = await claimKey(unchanged.body.id as number)
    const otherBytes = makePng({ width: 41, height: 20 })
    const client = new S3Client({
      endpoint: s3.settings.endpoint,
      region: s3.settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
    })
    await client.send(
      new PutObjectCommand({ Bucket: s3.settings.bucket, Key: replacedKey, Body: otherBytes }),
    )
    client.destroy()

    // the bucket checks each request's time, so the clock stays and the purge runs past the retention
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

    expect(purged).toMatchObject({ deletedClaims: 1, removedFiles: 1, keptScreenshots: 1 })
    expect(purged.problems).toContain(
      `claim ${replaced.body.id}: screenshot ${replacedKey} does not match its sealed hash; kept with its claim`,
    )
    expect(await ctx.storage.keys('brigit')).toEqual([replacedKey])
    expect(await ctx.storage.read(replacedKey)).toEqual(otherBytes)
    expect(await ctx.storage.has(unchangedKey)).toBe(false)
    expect(await countClaims(ctx.db)).toBe(1)
  })

  it('keeps a batch ZIP in the bucket, not in DATA_DIR, and answers its download from there', async () => {
    const email = 'filer@mail.test'
    const phone = '(808) 555-0101'
    const intake = await request(ctx.app)
      .post('/api/intake')
      .send(makeIntakeData({ email, phone, lastName: 'Filer', cashAdvanceApps: ['earnin'] }))
      .expect(201)
    // through the intake's Step 2 link, so the intake's address is the claim's
    await seedClaim(ctx, {
      app: 'earnin',
      status: 'approved',
      intake: intake.body as CreatedIntake,
      fields: { email, phoneNumber: phone, lastName: 'Filer' },
      screenshot: SCREENSHOT,
    })
    // a batch takes a claim once its fraud score is in
    await ctx.fraudScores.runDue()
    const api = '/api/staff/apps/earnin/batches'
    const started = await request(ctx.app)
      .post(api)
      .set({ Host: SITE, Origin: `http://${SITE}`, Cookie: staff })
      .send({ kind: 'notice' })
      .expect(202)
    await ctx.batchBuilder.runDue()
    const batch = (await request(ctx.app).get(`${api}/${started.body.id}`).set({ Host: SITE, Cookie: staff }))
      .body as Batch
    expect(batch.status).toBe('ready')
    // uploaded, then gone from the folder it was written in: another instance has no such folder
    const folder = path.join(ctx.dataDir, 'batches')
    expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([])

    const download = () =>
      asBuffer(request(ctx.app).get(`${api}/${batch.id}/download`).set({ Host: SITE, Cookie: staff }))
    const zip = (await download().expect(200)).body as Buffer
    expect(crypto.createHash('sha256').update(zip).digest('hex')).toBe(batch.sha256)

    const client = new S3Client({
      endpoint: s3.settings.endpoint,
      region: s3.settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
    })
    await client.send(
      new DeleteObjectCommand({
        Bucket: s3.settings.bucket,
        Key: `batches/earnin-notice-batch-${batch.id}.zip`,
      }),
    )
    client.destroy()
    const missing = await download().expect(404)
    expect((JSON.parse(String(missing.body)) as ErrorBody).error.message).toBe(
      `batch ${batch.id}'s ZIP is not in the S3 bucket`,
    )
  })
})
