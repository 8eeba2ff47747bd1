import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { ensureClientBuild } from '../../server/client-build.ts'
import { readServerConfig } from '../../server/config.ts'
import { CLIENT_DIR, startServer, type RunningServer } from '../../server/main.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    dataDir: string
    adminEmail: string
    adminPassword: string
  }
}

// the staff browser tests log in with it; the server keeps only its hash
const ADMIN_EMAIL = 'admin@e2e.test'
const ADMIN_PASSWORD = 'e2e-staff-password'

let server: RunningServer | undefined
let dataDir: string | undefined

export async function setup({ provide }: TestProject): Promise<void> {
  await ensureClientBuild(CLIENT_DIR, (message) => console.log(message))
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
    }),
  )
  provide('baseUrl', server.url)
  provide('dataDir', dataDir)
  provide('adminEmail', ADMIN_EMAIL)
  provide('adminPassword', ADMIN_PASSWORD)
}

export async function teardown(): Promise<void> {
  await server?.close()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
}
