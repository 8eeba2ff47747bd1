import type { Kysely, Transaction } from 'kysely'
import type { Database } from './database.ts'

/** The most writes one transaction takes; more wait for the next. */
const MAX_WRITES_PER_TRANSACTION = 64
/** How long a transaction keeps trying when another process holds SQLite's write lock. */
const LOCKED_RETRY_MS = 5_000

interface PendingWrite {
  work: (trx: Transaction<Database>) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const queues = new WeakMap<Kysely<Database>, PendingWrite[]>()

/**
 * Runs `work` as if in its own transaction, sharing one database transaction with the other writes that
 * arrive in the same turn of the event loop (group commit). When one of them throws (a duplicate phone
 * that got past the early check, say), that transaction is rolled back and each write of it runs again in
 * a transaction of its own, so only the faulty one fails and each stays all-or-nothing. `work` must
 * therefore do nothing but database work and checks that can run twice. Its promise settles once its
 * data is committed.
 *
 * A claim costs SQLite a commit, and the commit most of the pages it writes: the search index's new
 * segment, the indexes' leaf pages, the counters. Claims that arrive together write those pages once.
 * (Savepoints would keep a failure to its own write without the second pass, but FTS5 writes a segment
 * at every savepoint, which is most of what sharing the commit saves.)
 */
export function inSharedTransaction<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let queue = queues.get(db)
    if (!queue) {
      queue = []
      queues.set(db, queue)
      setImmediate(() => {
        queues.delete(db)
        void commitInBatches(db, queue!)
      })
    }
    queue.push({ work, resolve: resolve as (value: unknown) => void, reject })
  })
}

async function commitInBatches(db: Kysely<Database>, writes: PendingWrite[]): Promise<void> {
  for (let start = 0; start < writes.length; start += MAX_WRITES_PER_TRANSACTION) {
    await commitTogether(db, writes.slice(start, start + MAX_WRITES_PER_TRANSACTION))
  }
}

async function commitTogether(db: Kysely<Database>, writes: PendingWrite[]): Promise<void> {
  if (writes.length > 1) {
    const together = await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const values: unknown[] = []
        for (const write of writes) values.push(await write.work(trx))
        return { values }
      }),
    ).catch(() => undefined) // rolled back: the second pass below says which write failed, and why
    if (together) {
      writes.forEach((write, i) => write.resolve(together.values[i]))
      return
    }
  }
  for (const write of writes) {
    await retryWhileLocked(() => db.transaction().execute(write.work)).then(write.resolve, write.reject)
  }
}

/**
 * Runs the transaction again, after a short pause that lets the event loop go on, while SQLite answers
 * SQLITE_BUSY: with several server processes on one file, another may hold the write lock, and a
 * transaction is sometimes refused at once rather than after SQLite's own busy wait.
 */
export async function retryWhileLocked<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCKED_RETRY_MS
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (!isLocked(error) || Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * Math.min(50, 2 * attempt)))
    }
  }
}

function isLocked(error: unknown): boolean {
  return String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY')
}
