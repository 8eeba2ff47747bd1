import fs from 'node:fs'
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

/** CHROMIUM_PATH, else Debian's chromium, else the one @sparticuz/chromium ships in its npm package. */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  const { default: sparticuz } = await import('@sparticuz/chromium')
  return sparticuz.executablePath()
}

/**
 * The run's one Chromium, started by global-setup.ts: a launch costs seconds, a connection a tenth of
 * one, and each spec file's connection closes its own contexts when it disconnects.
 */
export async function startBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: await chromiumPath(), args: LAUNCH_ARGS })
}
