import type { JobKinds } from '../jobs/job-runner.ts'

/**
 * Builds the ZIPs of the batches startBatch queued (build-batch.job.ts), one at a time in a process,
 * under a lease in the database so two processes never build one; runDue() builds those waiting (tests).
 */
export type BatchBuilder = JobKinds
