import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { sql, type Kysely } from 'kysely'
import type { Logger } from '../logger.ts'
import type { Database } from './database.ts'

const CHECKPOINT_INTERVAL_MS = 100
/** WAL pages after which the server's own connection checkpoints (SQLite's default is 1,000). */
const SERVER_CHECKPOINT_PAGES = 2000
/** SQLite's default, put back if the checkpointer's thread fails. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000

export interface WalCheckpointer {
  stop(): Promise<void>
}

/**
 * Copies the SQLite write-ahead log into the database from a thread of its own. Left to SQLite, the
 * commit that takes the log past 1,000 pages copies them and fsyncs on the server's event loop: about
 * half of what a commit cost under a stream of claims, and a pause for every request behind it (at a
 * million claims the pages are scattered through a 1 GB file). Here a worker runs a PASSIVE checkpoint
 * every 100 ms, which never waits for the server's readers or writers. The server's connection still
 * checkpoints every 2,000 pages, because only its own checkpoint lets it start the log over (with the
 * worker's alone the log grew without end); by then the worker has copied nearly every page, so that
 * checkpoint is short.
 */
export async function startWalCheckpointer({
  db,
  file,
  logger,
}: {
  db: Kysely<Database>
  file: string
  logger: Logger
}): Promise<WalCheckpointer> {
  const worker = new Worker(new URL('./wal-checkpoint-worker.cjs', import.meta.url), {
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  })
  worker.unref() // never what keeps the process alive
  const giveBack = async (reason: string) => {
    logger.error({ err: reason }, 'WAL checkpointer stopped; the server checkpoints on its own again')
    await setAutocheckpoint(db, DEFAULT_AUTOCHECKPOINT_PAGES).catch(() => undefined)
  }
  let stopping = false
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) void giveBack(message.failed)
  })
  worker.on('error', (error) => void giveBack(error.message))
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  void exited.then(() => {
    if (!stopping) void giveBack('its thread exited')
  })
  await setAutocheckpoint(db, SERVER_CHECKPOINT_PAGES)
  return {
    async stop() {
      stopping = true
      worker.postMessage('stop')
      await exited
    },
  }
}

async function setAutocheckpoint(db: Kysely<Database>, pages: number): Promise<void> {
  await sql`pragma wal_autocheckpoint = ${sql.raw(String(pages))}`.execute(db)
}
