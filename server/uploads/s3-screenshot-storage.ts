import { Readable } from 'node:stream'
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
} from '@aws-sdk/client-s3'
import type { S3Settings } from './s3-client.ts'
import { isNetworkFailure } from '../network-failure.ts'
import { s3ClientOf } from './s3-client.ts'
import {
  newScreenshotKey,
  SCREENSHOT_FILE_NAME,
  SCREENSHOT_FOLDER_SUFFIX,
  screenshotNotFoundError,
  screenshotStoreUnavailableError,
  type ScreenshotStorage,
} from './screenshot-storage.ts'

// short enough that a claim facing an unreachable store gets its 503 within a few seconds (two tries of
// at most ~2 s to connect), long enough for a large screenshot on a slow link
const CONNECTION_TIMEOUT_MS = 2_000
const REQUEST_TIMEOUT_MS = 10_000
const MAX_ATTEMPTS = 2
/** Only keys of an app's folder: never one that a proxy or the store could read as a path out of it. */
const STORE_KEY = /^[A-Za-z0-9_-]+-screenshots\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/

/**
 * Objects in an S3-compatible bucket, named as the disk store names its files:
 * `${app}-screenshots/${timestamp}-${random}.${ext}`. A completed PutObject is durable, so save() has
 * nothing to sync. Unreachable (refused, timed out, unresolvable, 5xx) is a 503 AppError.
 */
export function createS3ScreenshotStorage(settings: S3Settings): ScreenshotStorage {
  const { bucket } = settings
  const client = s3ClientOf(settings, {
    maxAttempts: MAX_ATTEMPTS,
    connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    socketTimeoutMs: REQUEST_TIMEOUT_MS,
  })
  const checked = (key: string): string => {
    if (!STORE_KEY.test(key)) throw new Error(`screenshot key "${key}" is outside the store`)
    return key
  }
  const getObject = async (key: string) => {
    try {
      const { Body, ContentLength } = await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: checked(key) }),
      )
      if (!(Body instanceof Readable)) throw new Error(`the store sent no body for screenshot "${key}"`)
      return { body: Body, size: ContentLength ?? 0 }
    } catch (error) {
      throw isMissing(error) ? screenshotNotFoundError(key) : storeError(error)
    }
  }
  return {
    async save({ app, extension, bytes }) {
      const key = newScreenshotKey(app, extension)
      await send(() => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes })))
      return key
    },
    async has(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: checked(key) }))
        return true
      } catch (error) {
        if (isMissing(error)) return false
        throw storeError(error)
      }
    },
    async remove(key) {
      // deleting a key that is not there succeeds, as the disk store's rm({ force: true }) does
      await send(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checked(key) })))
    },
    async read(key) {
      const { body } = await getObject(key)
      const chunks: Buffer[] = []
      try {
        for await (const chunk of body) chunks.push(chunk as Buffer)
      } catch (error) {
        throw storeError(error)
      }
      return Buffer.concat(chunks)
    },
    stream: getObject,
    async apps() {
      const apps: string[] = []
      const pages = paginateListObjectsV2({ client }, { Bucket: bucket, Delimiter: '/' })
      await send(async () => {
        for await (const page of pages) {
          for (const { Prefix: prefix } of page.CommonPrefixes ?? []) {
            const folder = prefix?.slice(0, -1)
            if (folder?.endsWith(SCREENSHOT_FOLDER_SUFFIX))
              apps.push(folder.slice(0, -SCREENSHOT_FOLDER_SUFFIX.length))
          }
        }
      })
      return apps.sort()
    },
    async keys(app) {
      const folder = `${app}${SCREENSHOT_FOLDER_SUFFIX}/`
      const keys: string[] = []
      const pages = paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: folder, Delimiter: '/' })
      await send(async () => {
        for await (const page of pages) {
          for (const { Key: key } of page.Contents ?? []) {
            if (key && SCREENSHOT_FILE_NAME.test(key.slice(folder.length))) keys.push(key)
          }
        }
      })
      return keys
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }))
      } catch (error) {
        const status = httpStatus(error)
        if (status === 404) throw new Error(`bucket "${bucket}" does not exist`)
        if (status === 403) throw new Error(`access to bucket "${bucket}" is denied`)
        if (isUnreachable(error)) throw new Error(`the store cannot be reached (${describeError(error)})`)
        throw new Error(`bucket "${bucket}" did not answer as expected (${describeError(error)})`)
      }
    },
    async close() {
      client.destroy()
    },
  }
}

async function send<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request()
  } catch (error) {
    throw storeError(error)
  }
}

function storeError(error: unknown): unknown {
  return isUnreachable(error) ? screenshotStoreUnavailableError(error) : error
}

/** Not there: a missing key (GetObject's NoSuchKey, HeadObject's bare 404); a missing bucket is not this. */
function isMissing(error: unknown): boolean {
  const { name } = error as { name?: unknown }
  if (name === 'NoSuchKey' || name === 'NotFound') return true
  return name !== 'NoSuchBucket' && httpStatus(error) === 404
}

/** Down, overloaded or out of reach, as opposed to refusing this request (403, 404, a bad key). */
function isUnreachable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  if (isNetworkFailure(error)) return true
  const { name, errors, cause } = error as { name?: unknown; errors?: unknown; cause?: unknown }
  if (name === 'TimeoutError') return true
  const status = httpStatus(error)
  if (status !== undefined && status >= 500) return true
  if (Array.isArray(errors) && errors.some(isUnreachable)) return true
  return cause !== undefined && cause !== error && isUnreachable(cause)
}

function httpStatus(error: unknown): number | undefined {
  const status = (error as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata
    ?.httpStatusCode
  return typeof status === 'number' ? status : undefined
}

function describeError(error: unknown): string {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown }
  if (typeof code === 'string') return code
  if (typeof name === 'string' && name !== 'Error') return name
  return typeof message === 'string' && message ? message.slice(0, 100) : 'no reason given'
}
