import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { CHECK_SCREENSHOT, checkScreenshotJob } from './check-screenshot.job.ts'

/** Finds claims whose screenshot is another claimant's, in the background of the server. */
export interface DuplicateScreenshots {
  /** A claim was committed: look soon, once the server is quiet. */
  wake(): void
  /** Resolves once no check is due (or the sweeper is stopped). */
  settled(): Promise<void>
  stop(): Promise<void>
}

/** The checks as the routes and tests see them, run by `jobs` (check-screenshot.job.ts). */
export function duplicateScreenshotsOf(jobs: JobRunner): DuplicateScreenshots {
  return {
    wake: () => jobs.wake(CHECK_SCREENSHOT),
    settled: () => jobs.settled(CHECK_SCREENSHOT),
    stop: () => jobs.stop(CHECK_SCREENSHOT),
  }
}

/** A sweeper with a runner of its own (a test's server process). */
export function createDuplicateScreenshots(
  deps: Parameters<typeof checkScreenshotJob>[0] & { requests?: RequestActivity | undefined },
): DuplicateScreenshots {
  const job = checkScreenshotJob(deps)
  return duplicateScreenshotsOf(
    createJobRunner({ db: deps.db, handlers: [job], logger: deps.logger, requests: deps.requests }),
  )
}
