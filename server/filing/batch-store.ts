import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import type { S3Settings } from '../uploads/s3-client.ts'
import { s3ClientOf } from '../uploads/s3-client.ts'

/**
 * Where a built batch's ZIP is kept for download. The builder writes it under DATA_DIR/batches first;
 * with S3_BUCKET set it then goes to the bucket, as the screenshots do, so any instance behind the
 * proxy answers its download, not only the one that built it.
 */
export interface BatchStore {
  /** Keeps the finished ZIP at `file` under `key` (its file name); resolves once it is durable there. */
  keep(key: string, file: string): Promise<void>
  /** The ZIP kept under `key`, as a stream, or undefined when the store has none. */
  open(key: string): Promise<Readable | undefined>
  /** Forgets the ZIP under `key` (a batch that failed after keeping it); nothing there is no error. */
  remove(key: string): Promise<void>
  /** Where a missing ZIP was looked for, for the 404 that says so: "… is not <missing>". */
  missing: string
}

/** The ZIPs stay in DATA_DIR/batches, where the builder wrote them. */
export function diskBatchStore(batchDir: string): BatchStore {
  const fileOf = (key: string) => path.join(batchDir, path.basename(key))
  return {
    async keep() {
      // written, synced and renamed into place by the builder (batch-zip.ts): nothing to do
    },
    async open(key) {
      const stream = fs.createReadStream(fileOf(key))
      try {
        // the open itself fails for a missing file: wait for it rather than answer 200 with no body
        await new Promise<void>((resolve, reject) => {
          stream.once('open', () => resolve())
          stream.once('error', reject)
        })
        return stream
      } catch {
        stream.destroy()
        return undefined
      }
    },
    async remove(key) {
      await fs.promises.rm(fileOf(key), { force: true })
    },
    missing:
      'on this server; it is kept in the DATA_DIR of the server that built it (set S3_BUCKET to share it)',
  }
}

/** A batch's objects: `batches/<app>-<kind>-batch-<id>.zip`, beside the apps' screenshot folders. */
const KEY_PREFIX = 'batches/'
const BATCH_FILE_NAME = /^[A-Za-z0-9_-]+-(?:notice|filing)-batch-\d+\.zip$/

// a ZIP of thousands of PDFs is hundreds of megabytes: the upload may take minutes, but a connection
// that stops moving for a minute fails rather than holding the batch's lease
const CONNECTION_TIMEOUT_MS = 5_000
const SOCKET_TIMEOUT_MS = 60_000
const REQUEST_TIMEOUT_MS = 30 * 60_000

/** The ZIPs in the S3 bucket of the screenshots; the builder's file is removed once it is uploaded. */
export function s3BatchStore(settings: S3Settings): BatchStore {
  const { bucket } = settings
  const client = s3ClientOf(settings, {
    maxAttempts: 2,
    // a streamed body would otherwise go as aws-chunked with its checksum in a trailer, which not every
    // S3-compatible server reads (some keep the chunks' framing as the object); the ZIP's SHA-256 is on
    // its batch's row and in the audit log instead
    requestChecksumCalculation: 'WHEN_REQUIRED',
    connectionTimeoutMs: CONNECTION_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    socketTimeoutMs: SOCKET_TIMEOUT_MS,
  })
  const objectKey = (key: string) => {
    if (!BATCH_FILE_NAME.test(key)) throw new Error(`batch file "${key}" is not a batch ZIP's name`)
    return `${KEY_PREFIX}${key}`
  }
  return {
    async keep(key, file) {
      const { size } = await fs.promises.stat(file)
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(key),
          Body: fs.createReadStream(file),
          ContentLength: size,
          ContentType: 'application/zip',
        }),
      )
      await fs.promises.rm(file, { force: true })
    },
    async open(key) {
      try {
        const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
        if (!(Body instanceof Readable)) throw new Error(`the store sent no body for batch file "${key}"`)
        return Body
      } catch (error) {
        const { name } = error as { name?: unknown }
        if (name === 'NoSuchKey' || name === 'NotFound') return undefined
        throw error
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }))
    },
    missing: 'in the S3 bucket',
  }
}

/** The store the settings name: the S3 bucket when S3_BUCKET is set, else DATA_DIR/batches. */
export function createBatchStore({
  batchDir,
  s3,
}: {
  batchDir: string
  s3: S3Settings | undefined
}): BatchStore {
  return s3 ? s3BatchStore(s3) : diskBatchStore(batchDir)
}
