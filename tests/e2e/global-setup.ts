import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { BrowserServer } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { ensureClientBuild } from '../../server/client-build.ts'
import { readServerConfig } from '../../server/config.ts'
import { CLIENT_DIR, startServer, type RunningServer } from '../../server/main.ts'
import { startBrowserServer } from './chromium.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dataDir: string
    adminEmail: string
    adminPassword: string
    /** The run's one Chromium: each spec file connects to it (browser.ts) rather than launching its own. */
    browserEndpoint: string
  }
}

// the staff browser tests log in with it; the server keeps only its hash
const ADMIN_EMAIL = 'admin@e2e.test'
const ADMIN_PASSWORD = 'e2e-staff-password'
/** Sign-ins here test the flow, not the hash's strength: scrypt at its lowest cost (N = 2^10). */
export const PASSWORD_HASH_COST = '10'

let server: RunningServer | undefined
let dataDir: string | undefined
let browserServer: BrowserServer | undefined

export async function setup({ provide }: TestProject): Promise<void> {
  await ensureClientBuild(CLIENT_DIR, (message) => console.log(message))
  const browserStarted = startBrowserServer()
  // read by the server's first hash; the spec files' own servers get it from vitest.e2e.config.ts
  process.env.PASSWORD_HASH_COST = PASSWORD_HASH_COST
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-e2e-'))
  server = await startServer(
    readServerConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      // every spec's browser is 127.0.0.1: limits set above the suite's claims
      PUBLIC_LIMIT_PER_ADDRESS: '100000',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      PASSWORD_HASH_COST,
      // the firm's bank, as payout batches name it in the ACH file and the checks' files
      ACH_ORIGIN_ROUTING: '021000021',
      ACH_ORIGIN_ACCOUNT: '5550001112',
      ACH_COMPANY_NAME: 'Example Firm LLP',
      ACH_COMPANY_ID: '1234567890',
    }),
  )
  browserServer = await browserStarted
  provide('baseUrl', server.url)
  provide('dataDir', dataDir)
  provide('adminEmail', ADMIN_EMAIL)
  provide('adminPassword', ADMIN_PASSWORD)
  provide('browserEndpoint', browserServer.wsEndpoint())
}

export async function teardown(): Promise<void> {
  await browserServer?.close()
  await server?.close()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
}
