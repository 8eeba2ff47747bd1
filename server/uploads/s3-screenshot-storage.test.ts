import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src/app-error.ts'
import { startS3Process, type S3Process } from '../../tests/server/support/s3-process.ts'
import { createS3ScreenshotStorage } from './s3-screenshot-storage.ts'
import type { ScreenshotStorage } from './screenshot-storage.ts'

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

describe('createS3ScreenshotStorage', () => {
  let s3: S3Process
  let storage: ScreenshotStorage
  beforeAll(async () => {
    s3 = await startS3Process()
    storage = createS3ScreenshotStorage(s3.settings)
  })
  afterAll(async () => {
    await storage?.close()
    await s3?.close()
  })

  /** An object the store did not write, put straight into the bucket. */
  async function putForeignObject(key: string): Promise<void> {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.settings.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.settings.accessKeyId, secretAccessKey: s3.settings.secretAccessKey },
    })
    try {
      await client.send(
        new PutObjectCommand({ Bucket: s3.settings.bucket, Key: key, Body: 'not a screenshot' }),
      )
    } finally {
      client.destroy()
    }
  }

  it('saves under a store-made key, and has, read and stream give back the same bytes', async () => {
    const bytes = crypto.randomBytes(70_000)
    const key = await storage.save({ app: 'brigit', extension: 'png', bytes })

    expect(key).toMatch(/^brigit-screenshots\/\d+-[0-9a-f]{16}\.png$/)
    expect(await storage.has(key)).toBe(true)
    expect(await storage.read(key)).toEqual(bytes)
    const { body, size } = await storage.stream(key)
    expect(size).toBe(bytes.length)
    expect(await collect(body)).toEqual(bytes)
  })

  it("lists the apps with screenshots and each app's store-named keys, not objects someone else put there", async () => {
    const brigit = await storage.save({ app: 'brigit', extension: 'png', bytes: Buffer.from('b') })
    const earnin = await storage.save({ app: 'earnin', extension: 'jpg', bytes: Buffer.from('e') })
    await putForeignObject('brigit-screenshots/notes.txt')
    await putForeignObject('brigit-screenshots/old/1-0123456789abcdef.png')
    await putForeignObject('readme.txt')
    await putForeignObject('archive/1-0123456789abcdef.png')

    expect(await storage.apps()).toEqual(['brigit', 'earnin'])
    const brigitKeys = await storage.keys('brigit')
    expect(brigitKeys).toContain(brigit)
    expect(brigitKeys.every((key) => /^brigit-screenshots\/\d+-[0-9a-f]{16}\.png$/.test(key))).toBe(true)
    expect(await storage.keys('earnin')).toEqual([earnin])
    expect(await storage.keys('chime')).toEqual([])
  })

  it('removes a key, and removing it again succeeds', async () => {
    const key = await storage.save({ app: 'cleo', extension: 'png', bytes: Buffer.from('gone soon') })
    await storage.remove(key)

    expect(await storage.has(key)).toBe(false)
    expect(await storage.keys('cleo')).toEqual([])
    await expect(storage.remove(key)).resolves.toBeUndefined()
  })

  it('answers a key it does not hold with code ENOENT from read and stream, and false from has', async () => {
    const missing = 'brigit-screenshots/1-0123456789abcdef.png'

    await expect(storage.stream(missing)).rejects.toMatchObject({ code: 'ENOENT' })
    await expect(storage.read(missing)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await storage.has(missing)).toBe(false)
  })

  it('refuses a key outside an app folder', async () => {
    await expect(storage.read('../claims.db')).rejects.toThrow('outside the store')
    await expect(storage.remove('brigit-screenshots/../../x')).rejects.toThrow('outside the store')
  })

  it('reports a bucket that does not exist as not ready', async () => {
    const other = createS3ScreenshotStorage({ ...s3.settings, bucket: 'no-such-bucket' })
    try {
      await expect(other.check()).rejects.toThrow('bucket "no-such-bucket" does not exist')
    } finally {
      await other.close()
    }
  })

  it('is not ready and answers 503 STORE_UNAVAILABLE within seconds while the store is down, and works when it is back', async () => {
    await expect(storage.check()).resolves.toBeUndefined()
    const kept = await storage.save({ app: 'brigit', extension: 'png', bytes: Buffer.from('kept') })
    await s3.stop()
    try {
      await expect(storage.check()).rejects.toThrow('cannot be reached')
      const started = Date.now()
      const error = await storage
        .save({ app: 'brigit', extension: 'png', bytes: Buffer.from('x') })
        .catch((e) => e)
      expect(Date.now() - started).toBeLessThan(5_000)
      expect(error).toBeInstanceOf(AppError)
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', status: 503 })
      expect((error as AppError).message).toMatch(/screenshot store/)
      // down is not missing: a staff view must not say "no screenshot"
      await expect(storage.stream(kept)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' })
      await expect(storage.has(kept)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' })
      await expect(storage.keys('brigit')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' })
    } finally {
      await s3.restart()
    }

    await expect(storage.check()).resolves.toBeUndefined()
    const key = await storage.save({ app: 'brigit', extension: 'png', bytes: Buffer.from('back') })
    expect((await storage.read(key)).toString()).toBe('back')
    expect((await storage.read(kept)).toString()).toBe('kept')
  })
})
