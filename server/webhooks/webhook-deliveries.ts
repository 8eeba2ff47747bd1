import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { DELIVER_WEBHOOK, deliverWebhookJob } from './deliver-webhook.job.ts'

/** Sends the queued webhook deliveries (deliver-webhook.job.ts). */
export interface WebhookDeliveries {
  /** An event was queued, or a delivery sent again: look now. */
  wake(): void
  /** Sends what is due at `now` (tests move the clock), returning when nothing more is. */
  runDue(now?: number): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

/** The deliveries as the routes and tests see them, run by `jobs`. */
export function webhookDeliveriesOf(jobs: JobRunner): WebhookDeliveries {
  return {
    wake: () => jobs.wake(DELIVER_WEBHOOK),
    runDue: (now) => jobs.runDue(DELIVER_WEBHOOK, now),
    settled: () => jobs.settled(DELIVER_WEBHOOK),
    stop: () => jobs.stop(DELIVER_WEBHOOK),
  }
}

/** A sender with a runner of its own (a test's server process). */
export function createWebhookDeliveries(
  deps: Parameters<typeof deliverWebhookJob>[0] & { requests?: RequestActivity | undefined },
): WebhookDeliveries {
  const job = deliverWebhookJob(deps)
  return webhookDeliveriesOf(
    createJobRunner({ db: deps.db, handlers: [job], logger: deps.logger, requests: deps.requests }),
  )
}
