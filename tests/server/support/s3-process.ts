import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import type { S3Settings } from '../../../server/config.ts'

/** The part of s3rver (an S3-protocol server, CommonJS and untyped) these tests use. */
interface S3rverApp {
  callback(): http.RequestListener
  configureBuckets(): Promise<void>
}
type S3rverConstructor = new (options: {
  directory: string
  silent: boolean
  configureBuckets: { name: string }[]
}) => S3rverApp

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor

export interface S3Process {
  /** http://127.0.0.1:PORT, the same across stop() and restart(). */
  endpoint: string
  /** What readServerConfig would give for S3_BUCKET, S3_ENDPOINT, … pointing here. */
  settings: S3Settings
  /** The folder s3rver keeps its objects in (an object is a file under {directory}/{bucket}/). */
  directory: string
  /** Closes the port (open connections cut): clients now get ECONNREFUSED. */
  stop(): Promise<void>
  /** After stop(): listens again on the same port, with the same objects. */
  restart(): Promise<void>
  /** stop() and remove the folder. */
  close(): Promise<void>
}

/**
 * s3rver on 127.0.0.1 and a port the system picks, silent, its objects in a fresh temporary folder,
 * with the bucket made. Its credentials: access key "S3RVER" (it knows no other; the secret is not
 * checked for SigV4). Its own listen() never settles when the port is taken, so the HTTP server is ours.
 * On Node 20 its ListObjectsV2 continuation tokens fail (they use DES, which OpenSSL 3 lacks): keep
 * listings under 1,000 keys.
 */
export async function startS3Process({
  bucket = 'claims-screenshots',
}: { bucket?: string } = {}): Promise<S3Process> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'))
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket }] })
  await s3rver.configureBuckets()
  let server: http.Server | undefined
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const next = http.createServer(s3rver.callback())
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => {
        next.off('error', reject)
        server = next
        resolve((next.address() as AddressInfo).port)
      })
    })
  const port = await listen(0)
  const endpoint = `http://127.0.0.1:${port}`
  const stop = async () => {
    const running = server
    server = undefined
    if (!running) return
    const closed = new Promise<void>((resolve) => running.close(() => resolve()))
    running.closeAllConnections()
    await closed
  }
  return {
    endpoint,
    directory,
    settings: {
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    stop,
    async restart() {
      if (!server) await listen(port)
    },
    async close() {
      await stop()
      fs.rmSync(directory, { recursive: true, force: true })
    },
  }
}
