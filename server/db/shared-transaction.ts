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

/**
 * Stores the items of several callers in one statement: `write` gets every item queued with the one
 * transaction it runs in, and resolves with one result per item, in their order. It must do nothing but
 * database work and checks that can run twice (see inSharedTransaction).
 */
export interface BatchWriter<Item, Result> {
  write(trx: Transaction<Database>, items: Item[]): Promise<Result[]>
}

interface PendingItem<Item> {
  item: Item
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

const batches = new WeakMap<
  BatchWriter<never, unknown>,
  { waiting: PendingItem<unknown>[]; isRunning: boolean }
>()

/**
 * Stores `item` through `writer` as if in its own transaction (group commit, as inSharedTransaction),
 * sharing one transaction and one `write` call with the items that arrive while the previous batch is
 * committing: on PostgreSQL a claim's statements, its counters' trigger and its commit each cost a round
 * trip or a statement, and the counters' row lock lets only one claim transaction run at a time anyway,
 * so one batch in flight that takes everything queued behind it does the least work per claim. When
 * the batch fails, it is rolled back and each item is written again in a transaction of its own, so
 * only the faulty one fails and each stays all-or-nothing. Resolves once the item is committed.
 */
export function inSharedBatch<Item, Result>(
  db: Kysely<Database>,
  writer: BatchWriter<Item, Result>,
  item: Item,
): Promise<Result> {
  return new Promise<Result>((resolve, reject) => {
    const key = writer as BatchWriter<never, unknown>
    let state = batches.get(key)
    if (!state) batches.set(key, (state = { waiting: [], isRunning: false }))
    state.waiting.push({ item, resolve: resolve as (value: unknown) => void, reject })
    if (!state.isRunning) {
      state.isRunning = true
      // the claims that arrive in this turn of the event loop join the first batch
      setImmediate(() => void writeBatches(db, writer as BatchWriter<unknown, unknown>, state))
    }
  })
}

async function writeBatches(
  db: Kysely<Database>,
  writer: BatchWriter<unknown, unknown>,
  state: { waiting: PendingItem<unknown>[]; isRunning: boolean },
): Promise<void> {
  try {
    while (state.waiting.length > 0) {
      const batch = state.waiting.splice(0, MAX_WRITES_PER_TRANSACTION)
      await writeTogether(db, writer, batch)
    }
  } finally {
    state.isRunning = false
  }
}

async function writeTogether(
  db: Kysely<Database>,
  writer: BatchWriter<unknown, unknown>,
  batch: PendingItem<unknown>[],
): Promise<void> {
  if (batch.length > 1) {
    const results = await retryWhileLocked(() =>
      db.transaction().execute((trx) =>
        writer.write(
          trx,
          batch.map((pending) => pending.item),
        ),
      ),
    ).catch(() => undefined) // rolled back: the second pass below says which item failed, and why
    if (results) {
      batch.forEach((pending, i) => pending.resolve(results[i]))
      return
    }
  }
  for (const pending of batch) {
    await retryWhileLocked(() => db.transaction().execute((trx) => writer.write(trx, [pending.item]))).then(
      ([result]) => pending.resolve(result),
      pending.reject,
    )
  }
}
