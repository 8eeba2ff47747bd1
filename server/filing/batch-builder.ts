import type { JobRunner } from '../jobs/job-runner.ts'
import { BUILD_BATCH } from './build-batch.job.ts'

/**
 * Builds the ZIPs of the batches startBatch queued (build-batch.job.ts), one at a time in a process,
 * under a lease in the database so two processes never build one.
 */
export interface BatchBuilder {
  wake(): void
  /** Builds every batch waiting (tests), returning when none is left. */
  runDue(): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

/** The builder as the routes and tests see it, run by `jobs`. */
export function batchBuilderOf(jobs: JobRunner): BatchBuilder {
  return {
    wake: () => jobs.wake(BUILD_BATCH),
    runDue: () => jobs.runDue(BUILD_BATCH),
    settled: () => jobs.settled(BUILD_BATCH),
    stop: () => jobs.stop(BUILD_BATCH),
  }
}
