import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { productScript } from './compiled-product.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, TEST_PUBLIC_LIMITS } from './helpers.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')
const START_TIMEOUT_MS = 30_000
const LISTENING = /Claims intake is running on (http:\/\/\S+)/

export interface ServerProcess {
  url: string
  /** The process started (with several server processes, their primary). */
  pid: number
  /** Everything the process printed so far, stdout and stderr. */
  output(): string
  /** The first printed line containing `text`, waiting for it (logs are written asynchronously). */
  waitForLine(text: string): Promise<string>
  /** Sends the signal and resolves once the process has exited, with how: 'code 0', 'signal SIGKILL'. */
  kill(signal: NodeJS.Signals): Promise<string>
}

const running = new Set<ChildProcess>()
// a test that throws half-way must not leave servers behind
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * The product as `npm run start:prod` runs it, compiled (compiled-product.ts), on 127.0.0.1 and a port
 * the system picks, without the client build (the API is all these tests use). Resolves once it listens.
 * start.test.ts starts it from source as `npm start` does.
 */
export async function startServerProcess({
  dataDir,
  databaseUrl,
  serverProcesses,
  env: settings = {},
  startTimeoutMs = START_TIMEOUT_MS,
}: {
  dataDir: string
  databaseUrl?: string
  /** SERVER_PROCESSES; unset, as in `npm start`: one. */
  serverProcesses?: number
  /** More settings (S3_BUCKET, TRUST_PROXY…), as a firm's environment gives them. */
  env?: Record<string, string>
  /** How long it may take to listen: 30 s unless given. */
  startTimeoutMs?: number
}): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'info',
    SKIP_CLIENT_BUILD: '1',
    // every test's requests come from 127.0.0.1: the limits' own tests set theirs
    PUBLIC_LIMIT_PER_ADDRESS: String(TEST_PUBLIC_LIMITS.perAddress),
    PUBLIC_LIMIT_GLOBAL: String(TEST_PUBLIC_LIMITS.globalPerMinute),
    // the API tests post without solving a challenge; proof-of-work.test.ts turns it on
    PROOF_OF_WORK: 'off',
  }
  // as `npm start` runs it: vitest's NODE_ENV=test and any DATABASE_URL of the shell stay out
  delete env.NODE_ENV
  delete env.DATABASE_URL
  delete env.SERVER_PROCESSES
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  if (serverProcesses !== undefined) env.SERVER_PROCESSES = String(serverProcesses)
  Object.assign(env, settings)
  const child = spawn(process.execPath, productScript('server/start'), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let printed = ''
  child.stdout.setEncoding('utf8').on('data', (text: string) => (printed += text))
  child.stderr.setEncoding('utf8').on('data', (text: string) => (printed += text))
  // 'close', not 'exit': by then everything the process printed has been read
  const exited = new Promise<string>((resolve) =>
    child.once('close', (code, signal) => {
      running.delete(child)
      resolve(signal ? `signal ${signal}` : `code ${code}`)
    }),
  )
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    return exited
  }

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not listen within ${startTimeoutMs / 1000} s`), startTimeoutMs)
    const onData = () => {
      const match = LISTENING.exec(printed)
      if (!match) return
      clearTimeout(timer)
      child.stdout.off('data', onData)
      resolve(match[1]!)
    }
    const fail = (reason: string) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`server/start.ts ${reason}; it printed:\n${printed}`))
    }
    child.stdout.on('data', onData)
    void exited.then((how) => fail(`exited (${how}) before it listened`))
  })
  const waitForLine = async (text: string) => {
    const deadline = Date.now() + START_TIMEOUT_MS
    for (;;) {
      const line = printed.split('\n').find((candidate) => candidate.includes(text))
      if (line !== undefined) return line
      if (Date.now() > deadline) throw new Error(`server/start.ts never printed "${text}":\n${printed}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  return { url, pid: child.pid!, output: () => printed, waitForLine, kill }
}

/** SIGKILLs every server these helpers started and that is still running (for afterAll). */
export async function killServerProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (!running.has(child)) return resolve()
          child.once('close', () => resolve())
          child.kill('SIGKILL')
        }),
    ),
  )
}
