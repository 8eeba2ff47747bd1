import crypto from 'node:crypto'
import fs from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { PassThrough, Transform, type Readable } from 'node:stream'
import yazl from 'yazl'
import { PRIVATE_FILE_MODE } from '../private-files.ts'

/** A file of a batch's ZIP as manifest.json lists it. */
export interface ZipEntry {
  name: string
  sha256: string
  bytes: number
}

/**
 * A batch's ZIP written to `file` as it is filled, entry by entry (yazl), each entry's SHA-256 kept
 * for the manifest and the whole ZIP's SHA-256 taken as it is written: a batch of ten thousand PDFs is
 * never in memory. It is written under a draft name and renamed once complete, so a half-built ZIP is
 * never taken for a batch. PDFs take far longer to make than to write, so the entries waiting in yazl
 * stay few.
 */
export interface BatchZip {
  add(name: string, bytes: Buffer): void
  /** The entries added so far, in order. */
  readonly entries: readonly ZipEntry[]
  /** Ends the ZIP, waits for it on disk and names it `file`. */
  finish(): Promise<{ bytes: number; sha256: string }>
  /** Stops and removes the draft (a failed build). */
  discard(): Promise<void>
}

export function openBatchZip(file: string, mtime: Date): BatchZip {
  // one name, whoever builds: a build taken over after a crash writes over the draft it left
  const draft = `${file}.part`
  const zip = new yazl.ZipFile()
  const hash = crypto.createHash('sha256')
  let size = 0
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      size += chunk.length
      done(null, chunk)
    },
  })
  const written = pipeline(zip.outputStream, count, fs.createWriteStream(draft, { mode: PRIVATE_FILE_MODE }))
  // a failure surfaces in finish(); until then nothing may go unhandled
  written.catch(() => undefined)
  const entries: ZipEntry[] = []
  return {
    entries,
    add(name, bytes) {
      entries.push({
        name,
        sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
      })
      // a stream rather than addBuffer: yazl keeps what addBuffer was given until the ZIP ends (ten
      // thousand PDFs), while a stream's bytes go once written
      const body = new PassThrough()
      body.end(bytes)
      zip.addReadStream(body, name, {
        mtime,
        mode: 0o100644,
        size: bytes.length,
        compress: !name.endsWith('.pdf'),
      })
    },
    async finish() {
      zip.end()
      await written
      const handle = await fs.promises.open(draft, 'r')
      await handle.sync()
      await handle.close()
      await fs.promises.rename(draft, file)
      return { bytes: size, sha256: hash.digest('hex') }
    },
    async discard() {
      ;(zip.outputStream as Readable).destroy()
      await written.catch(() => undefined)
      await fs.promises.rm(draft, { force: true })
    },
  }
}
