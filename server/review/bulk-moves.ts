import { createJobRunner, jobKinds, type JobKinds } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { BULK_MOVE, bulkMoveJob } from './bulk-move.job.ts'

/**
 * The bulk moves' jobs (bulk-move.job.ts): one job at a time in a process, claimed in the database
 * under a lease so that two processes never run one, resumed after a restart from the last page done.
 */
export type BulkMoves = JobKinds

/** A runner of bulk moves of its own (a test's next server process). */
export function createBulkMoves(
  deps: Parameters<typeof bulkMoveJob>[0] & { requests?: RequestActivity | undefined },
): BulkMoves {
  return jobKinds(createJobRunner({ ...deps, handlers: [bulkMoveJob(deps)] }), BULK_MOVE)
}
