import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import readline from 'node:readline'
import pg from 'pg'
import { BENCH_POSTGRES_SETTINGS, reserveHugePages } from './postgres-memory.ts'
import { BENCH_ADMIN_EMAIL } from './http.ts'

const ROOT = path.resolve(import.meta.dirname, '..')
// a stale client build is rebuilt by server/start.ts before it listens: allow for a Vite build
const SERVER_START_TIMEOUT_MS = 240_000
const STOP_GRACE_MS = 10_000

export interface RunningProcess {
  url: string
  pid: number
  stop(): Promise<void>
}

/** Children still running; killed on the way out even when the bench dies on an error. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

export function findFreePort(): Promise<number> {
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

/**
 * Starts `node --import tsx <script>` on 127.0.0.1 and a free port, its output going to logFile, and
 * resolves once `readyPath` answers (any status below 500).
 */
async function startNodeServer({
  script,
  env,
  logFile,
  readyPath,
}: {
  script: string
  env: Record<string, string>
  logFile: string
  readyPath: string
}): Promise<RunningProcess> {
  const port = await findFreePort()
  const log = fs.openSync(logFile, 'a')
  // a compiled script (.js) runs as `npm run start:prod` runs the server; a .ts one through tsx
  const args = script.endsWith('.js') ? [script] : ['--import', 'tsx', script]
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  })
  fs.closeSync(log)
  running.add(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      await exited
      clearTimeout(timer)
    }
    running.delete(child)
  }
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      running.delete(child)
      throw new Error(`${script} exited before it listened; its log: ${logFile}\n${tail(logFile)}`)
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${script} did not answer within ${SERVER_START_TIMEOUT_MS / 1000} s; log: ${logFile}`)
    }
    try {
      const response = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      if (response.status < 500) break
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return { url, pid: child.pid!, stop }
}

/**
 * The real product, as `npm start` runs it (server/start.ts), on its own DATA_DIR; or, given
 * `compiledStart` (the compiled server/start.js), as `npm run start:prod` runs it, with the client
 * built first as `npm run build` would (the compiled server refuses to start without it).
 */
export async function startProductServer({
  dataDir,
  databaseUrl,
  adminPassword,
  logFile,
  compiledStart,
  env = {},
}: {
  dataDir: string
  databaseUrl: string | undefined
  adminPassword: string
  logFile: string
  compiledStart?: string
  /** Settings of the bench's own (PAYPAL_BASE_URL…), over the ones every bench's server gets. */
  env?: Record<string, string>
}): Promise<RunningProcess> {
  if (compiledStart) {
    // loaded only here: the server's modules are many, and most benches start it from source
    const [{ ensureClientBuild }, { CLIENT_DIR }] = await Promise.all([
      import('../server/client-build.ts'),
      import('../server/main.ts'),
    ])
    await ensureClientBuild(CLIENT_DIR, (message) => console.log(message))
  }
  return startNodeServer({
    script: compiledStart ?? 'server/start.ts',
    env: {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: BENCH_ADMIN_EMAIL,
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'info',
      // the load generator sends claims far faster than it could solve a challenge for each
      PROOF_OF_WORK: 'off',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    logFile,
    readyPath: '/api/forms/brigit',
  })
}

/**
 * bench/baseline-server.ts: the bare Express + multer handler, its one insert into better-sqlite3, or
 * into PostgreSQL when databaseUrl is given.
 */
export function startBaselineServer({
  dataDir,
  logFile,
  databaseUrl,
}: {
  dataDir: string
  logFile: string
  databaseUrl?: string | undefined
}) {
  return startNodeServer({
    script: 'bench/baseline-server.ts',
    env: { DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    logFile,
    readyPath: '/ready',
  })
}

/**
 * A throw-away PostgreSQL from tests/server/support/postgres-process.ts (its own child process, which deletes
 * its data when its stdin closes), with a fresh database for the product and one for the baseline
 * handler: one server, so both run with the same settings (synchronous_commit among them), and with
 * the memory settings of postgres-memory.ts.
 */
export async function startPostgres(): Promise<{
  url: string
  baselineUrl: string
  /** The server's memory settings as it runs with them, for the bench's log and table. */
  memory: string
  stop(): Promise<void>
}> {
  const hugePages = reserveHugePages()
  const settings = Object.entries(BENCH_POSTGRES_SETTINGS).map(([name, value]) => `${name}=${value}`)
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'tests', 'server', 'support', 'postgres-process.ts'), ...settings],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  )
  running.add(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    child.stdin.end()
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    await exited
    clearTimeout(timer)
    running.delete(child)
    hugePages.release()
  }
  const adminUrl = await new Promise<string>((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout })
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve(line.slice('READY '.length))
      else if (line.startsWith('FAILED ')) reject(new Error(line.slice('FAILED '.length)))
    })
    void exited.then(() => reject(new Error('the PostgreSQL process exited before it was ready')))
  })
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  let memory: string
  try {
    await client.query('CREATE DATABASE claims_bench')
    await client.query('CREATE DATABASE claims_baseline')
    const { rows } = await client.query<{ shared_buffers: string; huge_pages_status: string }>(
      "SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('huge_pages_status') AS huge_pages_status",
    )
    memory = `shared_buffers ${rows[0]!.shared_buffers}, huge pages ${rows[0]!.huge_pages_status} (${hugePages.summary})`
  } finally {
    await client.end()
  }
  const databaseUrl = (name: string) => {
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return url.toString()
  }
  return { url: databaseUrl('claims_bench'), baselineUrl: databaseUrl('claims_baseline'), memory, stop }
}

/**
 * The resident memory of a process and of every process it started, in bytes, from /proc (Linux): the
 * product's server processes are children of the one the bench started.
 */
export function readRss(pid: number): number {
  let bytes = 0
  for (const id of [pid, ...descendants(pid)]) {
    try {
      const status = fs.readFileSync(`/proc/${id}/status`, 'utf8')
      const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]
      if (!kb) throw new Error(`no VmRSS in /proc/${id}/status`)
      bytes += Number(kb) * 1024
    } catch (error) {
      // a child may exit between the listing and the read; the process we were given may not
      if (id === pid) throw error
    }
  }
  return bytes
}

/**
 * CPU time in ms (user + system, from /proc, Linux) of a process and the processes it started: their
 * event-loop (main) threads, and all their threads.
 */
export interface CpuTime {
  eventLoop: number
  all: number
}

export function readCpuTime(pid: number): CpuTime {
  // /proc reports clock ticks; Linux's USER_HZ is 100 wherever Node runs
  const ticks = (statFile: string) => {
    const fields = fs.readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  }
  const time = { eventLoop: 0, all: 0 }
  for (const id of [pid, ...descendants(pid)]) {
    try {
      time.all += ticks(`/proc/${id}/stat`)
      // a process's main thread has the process's id
      time.eventLoop += ticks(`/proc/${id}/task/${id}/stat`)
    } catch (error) {
      if (id === pid) throw error // a child may exit between the listing and the read
    }
  }
  return time
}

/**
 * Stops a process and every process it started (SIGSTOP, Linux and macOS) until the returned function
 * is called (SIGCONT): a server waiting its turn in the submission pairs must not spend the other's
 * measured seconds on its own background work (the product's e-mail copies and index merges run when
 * it is quiet).
 */
export function pauseProcess(pid: number): () => void {
  const stopped = [pid, ...descendants(pid)]
  for (const id of stopped) process.kill(id, 'SIGSTOP')
  return () => {
    for (const id of stopped) {
      try {
        process.kill(id, 'SIGCONT')
      } catch {
        // it has exited
      }
    }
  }
}

function descendants(pid: number): number[] {
  let children: number[] = []
  try {
    for (const thread of fs.readdirSync(`/proc/${pid}/task`)) {
      const listed = fs.readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim()
      if (listed) children.push(...listed.split(/\s+/).map(Number))
    }
  } catch {
    children = []
  }
  return children.flatMap((child) => [child, ...descendants(child)])
}

function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return ''
  }
}
