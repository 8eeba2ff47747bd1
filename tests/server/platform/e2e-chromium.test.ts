import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium } from 'playwright-core'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { chromiumPath, LAUNCH_ARGS, prepareChromium, startBrowserServer } from '../../e2e/chromium.ts'

// CHROMIUM_PATH and /usr/bin/chromium are skipped: these tests are of the unpack a fresh machine does
const UNPACK_ONLY = { override: null, system: null }

/** The files this process holds open, by path (Linux, as @sparticuz/chromium's binary is). */
function openFiles(): string[] {
  return fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [fs.readlinkSync(path.join('/proc/self/fd', fd))]
    } catch {
      return [] // the folder's own descriptor, closed by the time it is read
    }
  })
}

/**
 * How `npm run test:e2e` (scripts/test-e2e.ts) gets its Chromium on a machine that has none: unpacked once
 * from @sparticuz/chromium into os.tmpdir(), then launched by its three runs at once.
 */
describe('the browser runs’ Chromium', () => {
  let tmpDir: string

  beforeEach(() => {
    tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-chromium-'))
    vi.stubEnv('TMPDIR', tmpDir)
  })
  afterEach(() => {
    vi.unstubAllEnvs()
    fs.rmSync(tmpDir, { recursive: true, force: true })
  })

  it('is unpacked into an empty TMPDIR before the runs start, and each run launches it at once', async () => {
    const executable = await prepareChromium(UNPACK_ONLY)
    expect(path.dirname(executable)).toBe(tmpDir)
    expect(() => fs.accessSync(executable, fs.constants.X_OK)).not.toThrow()

    // what each run's global set-up does with the CHROMIUM_PATH the runner hands it
    vi.stubEnv('CHROMIUM_PATH', executable)
    const started = await Promise.allSettled([1, 2, 3].map(() => startBrowserServer()))
    const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    try {
      expect(started.filter((result) => result.status === 'rejected')).toEqual([])
      for (const server of servers) {
        const browser = await chromium.connect(server.wsEndpoint())
        expect(await (await browser.newPage()).evaluate(() => navigator.userAgent)).toContain('Chrome')
        await browser.close()
      }
    } finally {
      await Promise.all(servers.map((server) => server.close()))
    }
  })

  it('is unpacked once when several launches in one process ask for it at once', async () => {
    const paths = [1, 2, 3].map(() => chromiumPath(UNPACK_ONLY))
    const first = await Promise.race(paths)
    const openWhenHanded = openFiles()
    const launched = await Promise.allSettled(
      paths.map(async (executablePath) =>
        chromium.launch({ executablePath: await executablePath, args: LAUNCH_ARGS }),
      ),
    )
    const browsers = launched.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    try {
      // a caller handed the binary while another unpack still writes it fails to start it (spawn ETXTBSY)
      expect(openWhenHanded).not.toContain(first)
      expect(launched.filter((result) => result.status === 'rejected')).toEqual([])
      expect(new Set(browsers.map((browser) => browser.version())).size).toBe(1)
    } finally {
      await Promise.all(browsers.map((browser) => browser.close()))
    }
  })
})
