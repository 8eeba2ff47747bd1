import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { Test } from 'supertest'
import yauzl from 'yauzl'

/** Unzips a ZIP's files into `dir` with yauzl, as any unzip tool would (making their folders), and lists their names. */
export function unzip(zip: Buffer, dir: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error)
      const names: string[] = []
      archive.on('entry', (entry: yauzl.Entry) => {
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError)
          const chunks: Buffer[] = []
          stream.on('data', (chunk: Buffer) => chunks.push(chunk))
          stream.on('end', () => {
            const file = path.join(dir, entry.fileName)
            fs.mkdirSync(path.dirname(file), { recursive: true })
            fs.writeFileSync(file, Buffer.concat(chunks))
            names.push(entry.fileName)
            archive.readEntry()
          })
        })
      })
      archive.on('end', () => resolve(names))
      archive.on('error', reject)
      archive.readEntry()
    })
  })
}

/** `sha256sum FILE`'s hash, from the coreutils command itself. */
export function sha256sum(file: string): string {
  return execFileSync('sha256sum', [file], { encoding: 'utf8' }).split(' ')[0]!
}

/** A supertest request whose body arrives as a Buffer (a ZIP, a PDF). */
export function asBuffer(test: Test): Test {
  return test.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = []
    res.on('data', (chunk: Buffer) => chunks.push(chunk))
    res.on('end', () => done(null, Buffer.concat(chunks)))
  })
}
