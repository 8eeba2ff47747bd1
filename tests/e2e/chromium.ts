import fs from 'node:fs'
import os from 'node:os'
import { chromium, type BrowserServer } from 'playwright-core'

/** Chromium's flags for the tests and the benches: headless, no sandbox (root in CI), no background traffic. */
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Where a Chromium may come from before the one @sparticuz/chromium ships; null skips a source. */
export interface ChromiumSources {
  /** Taken as is: CHROMIUM_PATH unless given. */
  override?: string | null
  /** Taken if it exists: Debian's /usr/bin/chromium unless given. */
  system?: string | null
}

/** Each os.tmpdir()'s one unpack of @sparticuz/chromium in this process. */
const unpacks = new Map<string, Promise<string>>()

// @sparticuz/chromium unpacks into os.tmpdir() and treats an existing `chromium` file there as a finished
// unpack, though the file exists from its first byte: a second caller gets a binary still open for
// writing (spawn ETXTBSY), or writes the same files over the first. So this process unpacks once, and
// `npm run test:e2e` unpacks (prepareChromium) before it starts the runs, which each unpack otherwise.
function unpackSparticuzChromium(): Promise<string> {
  const tmpDir = os.tmpdir()
  let unpack = unpacks.get(tmpDir)
  if (!unpack) {
    unpack = import('@sparticuz/chromium').then(({ default: sparticuz }) => sparticuz.executablePath())
    // a failed unpack is tried again by the next caller rather than handed to every caller after it
    unpack.catch(() => unpacks.delete(tmpDir))
    unpacks.set(tmpDir, unpack)
  }
  return unpack
}

/** CHROMIUM_PATH, else Debian's chromium, else the one @sparticuz/chromium ships in its npm package. */
export async function chromiumPath({
  override = process.env.CHROMIUM_PATH,
  system = '/usr/bin/chromium',
}: ChromiumSources = {}): Promise<string> {
  if (override) return override
  if (system && fs.existsSync(system)) return system
  return unpackSparticuzChromium()
}

/**
 * The Chromium for every browser run of `npm run test:e2e`, unpacked if it must be, before any run starts;
 * the runner hands it to the runs as CHROMIUM_PATH.
 */
export async function prepareChromium(sources: ChromiumSources = {}): Promise<string> {
  const executable = await chromiumPath(sources)
  fs.accessSync(executable, fs.constants.X_OK)
  return executable
}

/**
 * The run's one Chromium, started by global-setup.ts: a launch costs seconds, a connection a tenth of
 * one, and each spec file's connection closes its own contexts when it disconnects.
 */
export async function startBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: await chromiumPath(), args: LAUNCH_ARGS })
}
