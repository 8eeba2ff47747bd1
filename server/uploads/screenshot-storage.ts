import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Where screenshots live. Keys are made here, never from a user's file name. */
export interface ScreenshotStorage {
  save(options: { app: string; extension: string; bytes: Buffer }): Promise<string>
  remove(key: string): Promise<void>
  read(key: string): Promise<Buffer>
}

/** Files under {dataDir}/screenshots/{app}-screenshots/{timestamp}-{random}.{ext}; nothing serves this folder. */
export function createDiskScreenshotStorage(dataDir: string): ScreenshotStorage {
  const root = path.join(dataDir, 'screenshots')
  const resolve = (key: string): string => {
    const full = path.resolve(root, key)
    if (!full.startsWith(root + path.sep)) throw new Error(`screenshot key "${key}" is outside the store`)
    return full
  }
  return {
    async save({ app, extension, bytes }) {
      const key = `${app}-screenshots/${Date.now()}-${crypto.randomBytes(8).toString('hex')}.${extension}`
      const file = resolve(key)
      await fs.promises.mkdir(path.dirname(file), { recursive: true })
      // 'wx' never overwrites; fsync so a claim answered 201 keeps its file through a crash
      const handle = await fs.promises.open(file, 'wx')
      try {
        await handle.writeFile(bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      return key
    },
    async remove(key) {
      await fs.promises.rm(resolve(key), { force: true })
    },
    async read(key) {
      return fs.promises.readFile(resolve(key))
    },
  }
}
