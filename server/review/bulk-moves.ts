import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { BULK_MOVE, bulkMoveJob } from './bulk-move.job.ts'

/**
 * The bulk moves' jobs (bulk-move.job.ts): one job at a time in a process, claimed in the database
 * under a lease so that two processes never run one, resumed after a restart from the last page done.
 */
export interface BulkMoves {
  /** A job was queued: start it now. */
  wake(): void
  /** Runs the queued jobs to their end (tests), returning when none is left. */
  runDue(): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

/** The bulk moves as the routes and tests see them, run by `jobs`. */
export function bulkMovesOf(jobs: JobRunner): BulkMoves {
  return {
    wake: () => jobs.wake(BULK_MOVE),
    runDue: () => jobs.runDue(BULK_MOVE),
    settled: () => jobs.settled(BULK_MOVE),
    stop: () => jobs.stop(BULK_MOVE),
  }
}

/** A runner of bulk moves of its own (a test's next server process). */
export function createBulkMoves(
  deps: Parameters<typeof bulkMoveJob>[0] & { requests?: RequestActivity | undefined },
): BulkMoves {
  const job = bulkMoveJob(deps)
  return bulkMovesOf(
    createJobRunner({ db: deps.db, handlers: [job], logger: deps.logger, requests: deps.requests }),
  )
}
