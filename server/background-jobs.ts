import type { Kysely } from 'kysely'
import { agreementCopiesOf, type AgreementCopies } from './agreements/agreement-copies.ts'
import { sendAgreementCopyJob } from './agreements/send-agreement-copy.job.ts'
import type { Database } from './db/database.ts'
import { anchorLedgerJob } from './evidence/anchor-ledger.job.ts'
import type { BatchBuilder } from './filing/batch-builder.ts'
import { BUILD_BATCH, buildBatchJob } from './filing/build-batch.job.ts'
import { CHECK_SCREENSHOT, checkScreenshotJob } from './duplicates/check-screenshot.job.ts'
import type { DuplicateScreenshots } from './duplicates/duplicate-screenshots.ts'
import type { JobHandler } from './jobs/job-handler.ts'
import { createJobRunner, jobKinds, type JobKinds, type JobRunner } from './jobs/job-runner.ts'
import type { Logger } from './logger.ts'
import type { RequestActivity } from './request-activity.ts'
import type { ClaimCures } from './review/claim-cures.ts'
import { BULK_MOVE, bulkMoveJob } from './review/bulk-move.job.ts'
import type { BulkMoves } from './review/bulk-moves.ts'
import { END_CURE_PERIOD, endCurePeriodJob } from './review/end-cure-period.job.ts'
import { SEND_CURE_NOTICE, sendCureNoticeJob } from './review/send-cure-notice.job.ts'
import { DELIVER_WEBHOOK, deliverWebhookJob } from './webhooks/deliver-webhook.job.ts'
import { SEND_REMINDER, sendReminderJob } from './journey/send-reminder.job.ts'
import { SCORE_CLAIM, scoreClaimJob } from './fraud/score-claim.job.ts'
import { SEND_PAYOUT, sendPayoutJob } from './payouts/send-payout.job.ts'
import type { WebhookDeliveries } from './webhooks/webhook-deliveries.ts'

type Deps<F extends (deps: never) => unknown> = Omit<Parameters<F>[0], 'db' | 'logger'>

/**
 * The process's one job runner and every job it runs: the registry, one line a job kind. Each job is a
 * handler file beside its feature (`<feature>/<verb>-<noun>.job.ts`); the facades are how routes wake
 * the jobs and tests run them.
 */
export function startBackgroundJobs({
  db,
  logger,
  requests,
  agreementCopies,
  duplicateScreenshots,
  webhooks,
  claimCures,
  bulkMoves,
  batchBuilder,
  reminders,
  fraudScores,
  payouts,
  ledgerAnchor,
}: {
  db: Kysely<Database>
  logger: Logger
  /** The server's requests, which the jobs wait for; left out (tests), only wakes hold them back. */
  requests?: RequestActivity | undefined
  agreementCopies: Deps<typeof sendAgreementCopyJob>
  /** Left out (tests), no screenshot is checked: a test runs a sweeper of its own. */
  duplicateScreenshots?: Omit<Deps<typeof checkScreenshotJob>, 'copiesSending'> | undefined
  webhooks: Deps<typeof deliverWebhookJob>
  claimCures: Deps<typeof sendCureNoticeJob>
  bulkMoves: Omit<Deps<typeof bulkMoveJob>, 'claimCures'>
  batchBuilder: Deps<typeof buildBatchJob>
  reminders: Deps<typeof sendReminderJob>
  fraudScores: Deps<typeof scoreClaimJob>
  /** Sends the approved payout batches (payouts/send-payout.job.ts). */
  payouts: Deps<typeof sendPayoutJob>
  /** Left out (tests), the ledger's head is not anchored in the background. */
  ledgerAnchor?: Deps<typeof anchorLedgerJob> | undefined
}): {
  jobs: JobRunner
  agreementCopies: AgreementCopies
  duplicateScreenshots: DuplicateScreenshots
  webhooks: WebhookDeliveries
  claimCures: ClaimCures
  bulkMoves: BulkMoves
  batchBuilder: BatchBuilder
  reminders: JobKinds
  fraudScores: JobKinds
  payoutSender: JobKinds
} {
  const copies = sendAgreementCopyJob({ db, logger, ...agreementCopies })
  const cureKinds = [SEND_CURE_NOTICE, END_CURE_PERIOD]
  const handlers: JobHandler[] = [
    copies,
    ...(duplicateScreenshots
      ? [checkScreenshotJob({ db, logger, ...duplicateScreenshots, copiesSending: copies.sending })]
      : []),
    deliverWebhookJob({ db, logger, ...webhooks }),
    sendCureNoticeJob({ db, logger, ...claimCures }),
    endCurePeriodJob({ db, logger, ...claimCures }),
    bulkMoveJob({
      db,
      logger,
      ...bulkMoves,
      claimCures: { wake: () => cureKinds.forEach((kind) => jobs.wake(kind)) },
    }),
    buildBatchJob({ db, logger, ...batchBuilder }),
    sendReminderJob({ db, logger, ...reminders }),
    scoreClaimJob({ db, logger, ...fraudScores }),
    sendPayoutJob({ db, logger, ...payouts }),
    ...(ledgerAnchor ? [anchorLedgerJob({ db, logger, ...ledgerAnchor })] : []),
  ]
  const jobs = createJobRunner({ db, handlers, logger, requests })
  return {
    jobs,
    agreementCopies: agreementCopiesOf(jobs, copies),
    duplicateScreenshots: jobKinds(jobs, CHECK_SCREENSHOT),
    webhooks: jobKinds(jobs, DELIVER_WEBHOOK),
    claimCures: jobKinds(jobs, cureKinds),
    bulkMoves: jobKinds(jobs, BULK_MOVE),
    batchBuilder: jobKinds(jobs, BUILD_BATCH),
    reminders: jobKinds(jobs, SEND_REMINDER),
    fraudScores: jobKinds(jobs, SCORE_CLAIM),
    payoutSender: jobKinds(jobs, SEND_PAYOUT),
  }
}
