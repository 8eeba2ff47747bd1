import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makeClaimData, makePng } from '../support/helpers.ts'
import { killServerProcesses, startServerProcess } from '../support/server-process.ts'

const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-file-modes-'))
afterAll(async () => {
  await killServerProcesses()
  fs.rmSync(parent, { recursive: true, force: true })
})

/** Every file and folder under `root`, relative, with its permission bits as octal ('700'). */
function modes(root: string): Record<string, string> {
  const found: Record<string, string> = { '.': (fs.statSync(root).mode & 0o777).toString(8) }
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name)
    found[path.relative(root, full)] = (fs.statSync(full).mode & 0o777).toString(8)
  }
  return found
}

describe('the data folder', () => {
  it('is made readable by the server’s user only: folders 0700, files 0600', async () => {
    // a folder the server makes itself, as on a first start
    const dataDir = path.join(parent, 'data')
    const server = await startServerProcess({ dataDir })
    const form = new FormData()
    form.append('data', JSON.stringify(makeClaimData()))
    form.append('screenshot', new Blob([new Uint8Array(makePng({ width: 30, height: 10 }))]), 's.png')
    const res = await fetch(`${server.url}/api/forms/brigit/submissions`, { method: 'POST', body: form })
    expect(res.status).toBe(201)
    // the e-mail copy goes out once the server is quiet: wait (up to 20 s) for it in the outbox
    const outbox = path.join(dataDir, 'outbox')
    const sent = () => fs.existsSync(outbox) && fs.readdirSync(outbox).some((name) => name.endsWith('.eml'))
    for (let i = 0; i < 200 && !sent(); i++) await new Promise((resolve) => setTimeout(resolve, 100))
    await server.kill('SIGTERM')

    const found = modes(dataDir)
    const folders = Object.entries(found).filter(([name]) =>
      fs.statSync(path.join(dataDir, name)).isDirectory(),
    )
    const files = Object.entries(found).filter(([name]) => fs.statSync(path.join(dataDir, name)).isFile())
    expect(folders.map(([name]) => name)).toEqual(
      expect.arrayContaining(['.', 'screenshots', 'screenshots/brigit-screenshots', 'outbox']),
    )
    expect(files.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'claims.db',
        'evidence.key',
        // the ledger's head, written as the server stops
        'evidence-head.json',
        'pdf-signing.p12',
        expect.stringMatching(/\.eml$/),
      ]),
    )
    expect(Object.fromEntries(folders)).toEqual(Object.fromEntries(folders.map(([name]) => [name, '700'])))
    expect(Object.fromEntries(files)).toEqual(Object.fromEntries(files.map(([name]) => [name, '600'])))
  })
})
