import { createJobRunner, jobKinds, type JobKinds } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { CHECK_SCREENSHOT, checkScreenshotJob } from './check-screenshot.job.ts'

/** Finds claims whose screenshot is another claimant's (check-screenshot.job.ts). */
export type DuplicateScreenshots = Omit<JobKinds, 'runDue'>

/** A sweeper with a runner of its own (a test's server process). */
export function createDuplicateScreenshots(
  deps: Parameters<typeof checkScreenshotJob>[0] & { requests?: RequestActivity | undefined },
): DuplicateScreenshots {
  return jobKinds(createJobRunner({ ...deps, handlers: [checkScreenshotJob(deps)] }), CHECK_SCREENSHOT)
}
