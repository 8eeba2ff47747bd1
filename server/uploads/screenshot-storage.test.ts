import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createDiskScreenshotStorage } from './screenshot-storage.ts'

const dirs: string[] = []
function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('createDiskScreenshotStorage', () => {
  it('stores claims that arrive together, each under its own name with its own bytes', async () => {
    const storage = createDiskScreenshotStorage(tempDataDir())
    const files = Array.from({ length: 40 }, () => crypto.randomBytes(2048))
    const keys = await Promise.all(
      files.map((bytes, i) => storage.save({ app: i % 2 ? 'brigit' : 'earnin', extension: 'png', bytes })),
    )
    expect(new Set(keys).size).toBe(40)
    for (const [i, key] of keys.entries()) expect(await storage.read(key)).toEqual(files[i])
    expect(await storage.apps()).toEqual(['brigit', 'earnin'])
    expect((await storage.keys('brigit')).sort()).toEqual(keys.filter((_, i) => i % 2).sort())
  })

  it("makes an app's folder again when it is removed while the server runs", async () => {
    const dataDir = tempDataDir()
    const storage = createDiskScreenshotStorage(dataDir)
    await storage.save({ app: 'brigit', extension: 'png', bytes: Buffer.from('first') })
    fs.rmSync(path.join(dataDir, 'screenshots'), { recursive: true })
    const key = await storage.save({ app: 'brigit', extension: 'png', bytes: Buffer.from('second') })
    expect((await storage.read(key)).toString()).toBe('second')
    expect(await storage.keys('brigit')).toEqual([key])
  })

  // Linux: /proc/self/fd names what each descriptor is open on
  it.runIf(process.platform === 'linux')(
    'keeps one descriptor per live app folder for its syncs, none for a removed one, none after close()',
    async () => {
      const dataDir = tempDataDir()
      const screenshots = path.join(dataDir, 'screenshots')
      const storage = createDiskScreenshotStorage(dataDir)
      const openFolders = () =>
        fs
          .readdirSync('/proc/self/fd')
          .map((fd) => {
            try {
              return fs.readlinkSync(`/proc/self/fd/${fd}`)
            } catch {
              return '' // the directory listing's own descriptor, closed by now
            }
          })
          .filter((target) => target.startsWith(screenshots))
          .sort()
      for (const app of ['brigit', 'earnin', 'brigit']) {
        await storage.save({ app, extension: 'png', bytes: Buffer.from(app) })
      }
      expect(openFolders()).toEqual([
        path.join(screenshots, 'brigit-screenshots'),
        path.join(screenshots, 'earnin-screenshots'),
      ])
      fs.rmSync(path.join(screenshots, 'brigit-screenshots'), { recursive: true })
      const key = await storage.save({ app: 'brigit', extension: 'png', bytes: Buffer.from('again') })
      expect((await storage.read(key)).toString()).toBe('again')
      // the new brigit folder's descriptor, not the removed one's ("… (deleted)")
      expect(openFolders()).toEqual([
        path.join(screenshots, 'brigit-screenshots'),
        path.join(screenshots, 'earnin-screenshots'),
      ])
      await storage.close()
      expect(openFolders()).toEqual([])
    },
  )

  it('refuses a key outside its folder', async () => {
    const storage = createDiskScreenshotStorage(tempDataDir())
    await expect(storage.read('../claims.db')).rejects.toThrow('outside the store')
  })
})
