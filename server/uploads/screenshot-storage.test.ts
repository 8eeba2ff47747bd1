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

  it('refuses a key outside its folder', async () => {
    const storage = createDiskScreenshotStorage(tempDataDir())
    await expect(storage.read('../claims.db')).rejects.toThrow('outside the store')
  })
})
