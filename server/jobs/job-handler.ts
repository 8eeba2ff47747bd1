import type { Database } from '../db/database.ts'
import type { Transaction } from 'kysely'
import type { JobFilter, JobRow, JobTable } from './lease.ts'

/** What a handler is given for one job it holds the lease of. */
export interface JobContext<T extends JobTable> {
  /** The row, as taken. */
  row: JobRow<T>
  /** This attempt's number since the row last moved on: 1 the first time. */
  attempts: number
  /** The run's clock (epoch ms): tests move it. */
  now: number
  /** When the job is due again if this attempt fails (the retry policy); undefined: it is not tried again. */
  retryAt: number | undefined
  /** Holds the row a while longer, in `trx` beside the job's own writes; false when another process took it. */
  renew(trx?: Transaction<Database>): Promise<boolean>
  /**
   * Lets the row go in `trx`, beside the job's own writes, due next at `dueAt` (null: nothing more to
   * do); false when another process took it (the transaction should then write nothing). Return 'ended'.
   */
  end(trx: Transaction<Database>, dueAt?: number | null): Promise<boolean>
  /** Waits while the server's requests are under way (claims come first), at the latest until `deadline`. */
  quietMoment(deadline?: number): Promise<void>
  /** The process is stopping: hand the job back ('handed-back') at the next step. */
  isStopped(): boolean
}

/**
 * How the job went: 'done' (nothing more to do), 'retry' (failed: due again as the retry policy says,
 * or never past its end), 'handed-back' (left undone as the process stops: due at once, the attempt not
 * counted), 'ended' (the handler let the lease go itself, with ctx.end, or lost it), or the time the row
 * is due next after it moved on (`endRun`: the run stops here, the rest waiting for the next poll).
 */
export type JobOutcome =
  'done' | 'retry' | 'handed-back' | 'ended' | { next: number | null; endRun?: boolean }

/** A job whose work is rows of a table, each taken under a lease (server/jobs/lease.ts). */
export interface RowJobHandler<T extends JobTable> {
  kind: string
  table: T
  /** What is still to do beside due_at (a copy not sent yet); leave out when due_at says it all. */
  where?: JobFilter<T>
  /** How often the runner looks for work queued by other processes (and retries that came due). */
  pollMs: number
  /** Rows read at once. */
  batch?: number
  /** Jobs under way at once. */
  inFlight?: number
  /**
   * Each job waits for a quiet moment first (claims come first): for work that can wait, an e-mail copy or
   * a screenshot check. Left out, a job starts at once (a cure notice a reviewer just caused); a long job
   * gives way between its own steps with ctx.quietMoment.
   */
  waitsForQuiet?: boolean
  /** With waitsForQuiet, the longest a job waits after it came due; unset: while requests keep coming. */
  maxWaitMs?: number
  /** Waits before each job, after other work that goes first; `isStopped` ends the wait. */
  before?: (isStopped: () => boolean) => Promise<void>
  /** Runs once at the start of each run (pruning old rows). */
  beforeRun?: (now: number) => Promise<void>
  run(ctx: JobContext<T>): Promise<JobOutcome>
  /** Hears of work queued in this process, calling `wake`; returns how to stop hearing. */
  listen?: (wake: () => void) => () => void
  /** Called as the runner stops, after its last job. */
  stop?: () => Promise<void>
}

/** A job that claims no rows: the same work every `pollMs` in each process (safe to do twice). */
export interface PeriodicJobHandler {
  kind: string
  pollMs: number
  run(now: number): Promise<void>
  stop?: () => Promise<void>
}

export type JobHandler = { [T in JobTable]: RowJobHandler<T> }[JobTable] | PeriodicJobHandler
