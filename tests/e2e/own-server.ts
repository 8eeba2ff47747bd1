import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { readServerConfig } from '../../server/config.ts'
import { startServer } from '../../server/main.ts'

/** A server of a spec's own, for settings the shared e2e server cannot have. */
export interface OwnServer {
  url: string
  /** Its DATA_DIR: the database, the outbox, the set-up link file. */
  dataDir: string
  /** A fresh folder around DATA_DIR, for the spec's own files; removed with the server. */
  workDir: string
  /** Stops the server and removes its folder. */
  stop(): Promise<void>
}

/** Starts the product on a free port over a fresh DATA_DIR, with `settings` over the quiet defaults. */
export async function startOwnServer(
  name: string,
  settings: Record<string, string> = {},
): Promise<OwnServer> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `claims-e2e-${name}-`))
  const dataDir = path.join(workDir, 'data')
  const remove = () => fs.rmSync(workDir, { recursive: true, force: true })
  try {
    const server = await startServer(
      readServerConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...settings }),
    )
    return {
      url: server.url,
      dataDir,
      workDir,
      async stop() {
        await server.close()
        remove()
      },
    }
  } catch (error) {
    remove()
    throw error
  }
}
