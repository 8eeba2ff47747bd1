import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import readline from 'node:readline'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { loadPdfCertificate } from '../../../server/agreements/pdf-seal.ts'
import { createDb } from '../../../server/db/create-db.ts'
import { migrateToLatest } from '../../../server/db/migrate.ts'
import { compileProductForTests } from './compiled-product.ts'
import { MIGRATED_TEMPLATE } from './postgres-template.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the one PostgreSQL server of this run; each test file creates its own database on it. */
    postgresUrl: string
    /** A DATA_DIR made once for the run (seedDataDir): what a test's new DATA_DIR starts as a copy of. */
    seedDataDir: string
  }
}

/**
 * The database each test database is copied from (CREATE DATABASE … TEMPLATE), migrated once for the
 * run: a copy takes a tenth of the time of running every migration on a new database.
 */
async function createMigratedTemplate(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  try {
    await admin.query(`CREATE DATABASE ${MIGRATED_TEMPLATE}`)
  } finally {
    await admin.end()
  }
  const url = new URL(adminUrl)
  url.pathname = `/${MIGRATED_TEMPLATE}`
  // PostgreSQL keeps nothing in DATA_DIR; createDb asks for one all the same
  const { db } = createDb({ databaseUrl: url.toString(), dataDir: path.join(import.meta.dirname, 'unused') })
  try {
    await migrateToLatest(db)
  } finally {
    // a template may be copied only while no one is connected to it
    await db.destroy()
  }
}

/**
 * What every test context's DATA_DIR starts with, made once for the run: the SQLite database with every
 * migration run, and the self-signed PDF certificate a server makes on its first start. Each costs a
 * tenth to a fifth of a second of CPU (an RSA key, a hundred migrations), and the suite makes a context
 * some two hundred times. A test of the first start itself uses a DATA_DIR of its own.
 */
async function seedDataDir(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-seed-'))
  const { db } = createDb({ dataDir })
  try {
    await migrateToLatest(db)
  } finally {
    // closing checkpoints the write-ahead log into the file, so a copy of the file alone is whole
    await db.destroy()
  }
  loadPdfCertificate({ pdfSigningP12: undefined, dataDir })
  return dataDir
}

/**
 * Starts one throw-away PostgreSQL (in a child process) for the whole run and hands its URL to the tests;
 * meanwhile compiles the product the tests start as processes (compiled-product.ts).
 */
export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const compiled = compileProductForTests()
  compiled.catch(() => undefined) // told where it is awaited, after PostgreSQL's start
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'postgres-process.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout })
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(line.slice('READY '.length))
      else if (line.startsWith('FAILED ')) reject(new Error(line.slice('FAILED '.length)))
    })
    void exited.then((code) => reject(new Error(`the PostgreSQL process exited early (code ${code})`)))
  })
  await createMigratedTemplate(url)
  provide('postgresUrl', url)
  const seeded = await seedDataDir()
  provide('seedDataDir', seeded)
  await compiled

  return async () => {
    fs.rmSync(seeded, { recursive: true, force: true })
    child.stdin.end()
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    await exited
    clearTimeout(timer)
  }
}
