import { createJobRunner, jobKinds, type JobKinds, type JobRunner } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { SEND_AGREEMENT_COPY, sendAgreementCopyJob } from './send-agreement-copy.job.ts'

/** Sends the queued e-mail copies of signed agreements (send-agreement-copy.job.ts). */
export interface AgreementCopies extends Omit<JobKinds, 'runDue'> {
  /** Whether copies are going out now (one under way, or one done a moment ago): the screenshot checks let them go first. */
  sending(): boolean
}

/** The copies as the routes and tests see them, run by `jobs`. */
export function agreementCopiesOf(jobs: JobRunner, job: { sending(): boolean }): AgreementCopies {
  return { ...jobKinds(jobs, SEND_AGREEMENT_COPY), sending: job.sending }
}

/** A sender of copies with a runner of its own (a test's server process). */
export function createAgreementCopies(
  deps: Parameters<typeof sendAgreementCopyJob>[0] & { requests?: RequestActivity | undefined },
): AgreementCopies {
  const job = sendAgreementCopyJob(deps)
  return agreementCopiesOf(createJobRunner({ ...deps, handlers: [job] }), job)
}
