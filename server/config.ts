import path from 'node:path'
import { FIRM_SETTINGS } from '../src/firm-settings.ts'

export interface ServerConfig {
  port: number
  host: string
  dataDir: string
  formsDir: string
  /** postgres://… selects PostgreSQL; unset means a SQLite file in dataDir. */
  databaseUrl: string | undefined
  logLevel: string
  /** smtp(s)://… sends claimants a copy of their agreement; unset writes it to dataDir/outbox as .eml. */
  smtpUrl: string | undefined
  mailFrom: string
  /** The staff password; unset on a first start, one is generated and printed once. */
  adminPassword: string | undefined
  /** How many server processes share the port (SERVER_PROCESSES, default 1). */
  serverProcesses: number
}

const MAX_SERVER_PROCESSES = 64

/** Reads the environment once. Defaults are for a developer's own machine. */
export function readServerConfig(env: NodeJS.ProcessEnv = process.env): Readonly<ServerConfig> {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT "${env.PORT}" is not a port number: use 0..65535`)
  }
  const databaseUrl = env.DATABASE_URL?.trim() || undefined
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must start with postgres:// (leave it unset to use SQLite in DATA_DIR)')
  }
  // one by default: on the 2-core machine measured, two processes took no more claims than one at a
  // million claims (BENCHMARKS.md, session 11); a server with cores to spare can set more
  const serverProcesses = Number(env.SERVER_PROCESSES?.trim() || 1)
  if (!Number.isInteger(serverProcesses) || serverProcesses < 1 || serverProcesses > MAX_SERVER_PROCESSES) {
    throw new Error(
      `SERVER_PROCESSES "${env.SERVER_PROCESSES}" is not a number of processes: use 1..${MAX_SERVER_PROCESSES} (unset: 1)`,
    )
  }
  return Object.freeze({
    port,
    serverProcesses,
    // local-only default: set HOST=0.0.0.0 behind a reverse proxy to serve other machines
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    formsDir: path.resolve(env.FORMS_DIR ?? 'forms'),
    databaseUrl,
    logLevel: env.LOG_LEVEL ?? 'info',
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    mailFrom: env.MAIL_FROM ?? `${FIRM_SETTINGS.firmName} <${FIRM_SETTINGS.contactEmail}>`,
  })
}
