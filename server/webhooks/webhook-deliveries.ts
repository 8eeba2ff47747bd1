import { createJobRunner, jobKinds, type JobKinds } from '../jobs/job-runner.ts'
import type { RequestActivity } from '../request-activity.ts'
import { DELIVER_WEBHOOK, deliverWebhookJob } from './deliver-webhook.job.ts'

/** Sends the queued webhook deliveries (deliver-webhook.job.ts); runDue(now) moves the clock (tests). */
export type WebhookDeliveries = JobKinds

/** A sender with a runner of its own (a test's server process). */
export function createWebhookDeliveries(
  deps: Parameters<typeof deliverWebhookJob>[0] & { requests?: RequestActivity | undefined },
): WebhookDeliveries {
  return jobKinds(createJobRunner({ ...deps, handlers: [deliverWebhookJob(deps)] }), DELIVER_WEBHOOK)
}
