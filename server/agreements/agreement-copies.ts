import type { JobRunner } from '../jobs/job-runner.ts'
import { createJobRunner } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { SEND_AGREEMENT_COPY, sendAgreementCopyJob } from './send-agreement-copy.job.ts'

/** Sends the queued e-mail copies of signed agreements, in the background of the server. */
export interface AgreementCopies {
  /** A copy was queued: look now rather than at the next poll. */
  wake(): void
  /** Resolves once no copy is due (or the sender is stopped). */
  settled(): Promise<void>
  /** Whether copies are going out now (one under way, or one done a moment ago): the screenshot checks let them go first. */
  sending(): boolean
  stop(): Promise<void>
}

/** The copies as the routes and tests see them, run by `jobs` (send-agreement-copy.job.ts). */
export function agreementCopiesOf(jobs: JobRunner, job: { sending(): boolean }): AgreementCopies {
  return {
    wake: () => jobs.wake(SEND_AGREEMENT_COPY),
    settled: () => jobs.settled(SEND_AGREEMENT_COPY),
    sending: job.sending,
    stop: () => jobs.stop(SEND_AGREEMENT_COPY),
  }
}

/** A sender of copies with a runner of its own (a test's server process). */
export function createAgreementCopies(
  deps: Parameters<typeof sendAgreementCopyJob>[0] & { requests?: RequestActivity | undefined },
): AgreementCopies {
  const job = sendAgreementCopyJob(deps)
  return agreementCopiesOf(
    createJobRunner({ db: deps.db, handlers: [job], logger: deps.logger, requests: deps.requests }),
    job,
  )
}
