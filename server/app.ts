import express, { Router, type Express } from 'express'
import helmet from 'helmet'
import type { Kysely } from 'kysely'
import type { FormConfig } from '../src/form-config.ts'
import type { IntakeConfig } from '../src/intake-config.ts'
import type { AgreementCopies } from './agreements/agreement-copies.ts'
import type { DuplicateScreenshots } from './duplicates/duplicate-screenshots.ts'
import type { AgreementLinks } from './agreements/agreement-links.ts'
import { agreementRoutes } from './agreements/agreement.routes.ts'
import { intakeAnswerRoutes } from './agreements/intake-answer.routes.ts'
import { claimantPayoutRoutes } from './payouts/claimant-payout.routes.ts'
import type { AgreementTemplates } from './agreements/agreement-templates.ts'
import type { Database } from './db/database.ts'
import { errorHandler, notFoundApi } from './error-handler.ts'
import { funnelRoutes } from './attribution/funnel.routes.ts'
import { appCountsRoutes } from './dashboard/app-counts.routes.ts'
import type { BatchBuilder } from './filing/batch-builder.ts'
import type { BatchStore } from './filing/batch-store.ts'
import { filingBatchRoutes } from './filing/filing-batches.routes.ts'
import { awardRoutes } from './payouts/awards.routes.ts'
import { filingRoutes } from './filing/filing.routes.ts'
import { respondentListRoutes } from './filing/respondent-list.routes.ts'
import { loadFilings, type AppFiling } from './filing/load-filing-config.ts'
import { formRoutes } from './forms/form.routes.ts'
import { createValidatorModules, type ValidatorModules } from './forms/validator-modules.ts'
import { loadLanguages, type Languages } from './forms/languages.ts'
import { uiTextRoutes } from './forms/ui-text.routes.ts'
import { firmLogoRoutes } from './firm-logo.ts'
import type { RequireTwoFactor, TrustProxy } from './config.ts'
import { healthRoutes } from './health.routes.ts'
import { setPublicUrl } from './public-origin.ts'
import { intakeRoutes } from './intake/intake.routes.ts'
import { militaryRoutes } from './intake/military.routes.ts'
import type { Logger } from './logger.ts'
import { requestLogger } from './request-logger.ts'
import { dashboardRoutes } from './dashboard/dashboard.routes.ts'
import { assigneeRoutes } from './dashboard/assignee.routes.ts'
import { requireStaff } from './staff/require-staff.ts'
import { DEFAULT_IDLE_TIMEOUT_MS } from './staff/staff-session.ts'
import { staffAuthRoutes } from './sign-in/staff-auth.routes.ts'
import { accountRoutes } from './accounts/accounts.routes.ts'
import { inviteRoutes } from './accounts/invite.routes.ts'
import type { StaffMailer } from './staff/staff-mailer.ts'
import { twoFactorRoutes } from './sign-in/two-factor.routes.ts'
import type { TwoFactorKey } from './staff/two-factor/two-factor-key.ts'
import { staticClient } from './static-client.ts'
import { claimRoutes } from './submissions/claim.routes.ts'
import path from 'node:path'
import { PROJECT_ROOT } from './project-root.ts'

const DEFAULT_FORMS_DIR = path.join(PROJECT_ROOT, 'forms')
import type { ScreenshotStorage } from './uploads/screenshot-storage.ts'
import { auditLog } from './audit/audit-log.ts'
import { auditRoutes } from './audit/audit.routes.ts'
import type { AgreementPdfs } from './agreements/agreement-pdfs.ts'
import type { RequestActivity } from './request-activity.ts'
import { confirmationRoutes } from './confirmations/confirmation.routes.ts'
import { guardPublicPost, type PublicDoor, type PublicLimits } from './public-doors.ts'
import { createProofOfWork, type ProofOfWorkTuning } from './proof-of-work/proof-of-work.ts'
import { proofOfWorkRoutes } from './proof-of-work/proof-of-work.routes.ts'
import { loadReviews } from './lifecycle/load-review-config.ts'
import { reviewRoutes } from './review/review.routes.ts'
import type { Reviews } from '../src/review-config.ts'
import type { FraudConfigs } from '../src/fraud-config.ts'
import { loadFraudConfigs } from './fraud/load-fraud-config.ts'
import type { PayoutsConfigs } from '../src/payouts-config.ts'
import { loadPayoutsConfigs } from './payouts/load-payouts-config.ts'
import { yearEndRoutes } from './payouts/year-end.routes.ts'
import type { ClaimCures } from './review/claim-cures.ts'
import { cureRoutes } from './review/cure.routes.ts'
import { signedRecordRoutes } from './dashboard/signed-record.routes.ts'
import { bulkMoveRoutes } from './review/bulk-moves.routes.ts'
import { createClaimantJourney, type ClaimantJourney } from './journey/claimant-journey.ts'
import { loadJourneyConfig } from './journey/journey-config.ts'
import { claimantStatus } from './journey/claimant-status.ts'
import { journeyRoutes } from './journey/journey.routes.ts'
import type { BulkMoves } from './review/bulk-moves.ts'
import type { WebhookDeliveries } from './webhooks/webhook-deliveries.ts'
import { webhookRoutes } from './webhooks/webhooks.routes.ts'
import type { PayoutSettings } from './payouts/payout-settings.ts'
import { payoutRoutes } from './payouts/payouts.routes.ts'
import { payoutWebhookRoutes } from './payouts/payout-webhook.routes.ts'
import type { PayPalApi } from './payouts/providers/paypal-api.ts'

export interface AppDeps {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  intake: IntakeConfig
  storage: ScreenshotStorage
  templates: AgreementTemplates
  /** Sends the claimants' e-mail copies queued with their claims. */
  agreementCopies: AgreementCopies
  /** Counts the requests under way, which the background work waits for (backgroundLoop); left out in tests. */
  requestActivity?: RequestActivity
  /** Told of each committed claim, to keep its own work out of a surge's way (createDuplicateScreenshots). */
  duplicateScreenshots?: Pick<DuplicateScreenshots, 'wake'>
  /** Told of each committed claim: its fraud score follows (fraud/score-claim.job.ts). */
  fraudScores?: { wake(): void }
  /** E-mails the one-time links that open a claimant's agreements. */
  agreementLinks: AgreementLinks
  logger: Logger
  /** The key of the evidence seals' HMACs (loadEvidenceKey): never in the database. */
  evidenceKey: Buffer
  /** The key taxpayer and bank numbers are sealed with (loadPaymentsKey): never in the database. */
  paymentsKey: Buffer
  /** Makes the sealed agreement PDFs, off the event loop (agreementPdfThread). */
  agreementPdfs: AgreementPdfs
  /** The limits every public POST passes (PUBLIC_LIMIT_PER_ADDRESS, PUBLIC_LIMIT_GLOBAL). */
  publicLimits: PublicLimits
  /** PROOF_OF_WORK: the claim, intake and lookup POSTs need a solved challenge (proof-of-work.ts). */
  proofOfWork: boolean
  /** The challenges' range, lifetime and clock; the product's own when left out (tests make them small). */
  proofOfWorkTuning?: Partial<ProofOfWorkTuning>
  /** Every config and text per language; read from ./forms when left out (tests). */
  languages?: Languages
  /** Each app's review (loadReviews; default: the project's forms folder). */
  reviews?: Reviews
  /** Each app's fraud tests and thresholds (loadFraudConfigs; default: the project's forms folder). */
  fraud?: FraudConfigs
  /** Each app's payouts.json: the 1099 threshold, withholding, check days (loadPayoutsConfigs; default: the project's forms folder). */
  payoutsConfigs?: PayoutsConfigs
  /** Each app's filing settings (loadFilings; default: the project's forms folder). */
  filings?: (app: string) => AppFiling
  /** Builds the notice and filing batches' ZIPs; woken by each batch started (filing/build-batch.job.ts). */
  batchBuilder?: Pick<BatchBuilder, 'wake'>
  /** Where the batches' ZIPs are kept (createBatchStore); left out, none can be downloaded (tests without). */
  batchStore?: BatchStore
  /** Sends deficiency notices and reminders and ends cure periods; woken by each move (review/send-cure-notice.job.ts, review/end-cure-period.job.ts). */
  claimCures?: Pick<ClaimCures, 'wake'>
  /** The claimant's Step 2 links and answers to the mails (createClaimantJourney); made here when left out. */
  journey?: ClaimantJourney
  /** Sends the e-mail after each intake and the reminders; woken by each intake (journey/send-reminder.job.ts). */
  reminders?: { wake(): void }
  /** Runs the bulk moves' jobs; woken by each job queued (createBulkMoves). */
  bulkMoves?: Pick<BulkMoves, 'wake'>
  /** The browser's precompiled validators; compiled on first request when left out (tests). */
  validators?: ValidatorModules
  /** The built client (dist/client); left out in API-only tests. */
  clientDir?: string
  /** The proxies whose X-Forwarded-* headers are believed (TRUST_PROXY); loopback when left out. */
  trustProxy?: TrustProxy
  /** The site's external origin (PUBLIC_URL); each request's own when left out. */
  publicUrl?: string | undefined
  /** STAFF_IDLE_MINUTES in milliseconds; 30 minutes when left out. */
  staffIdleTimeoutMs?: number
  /** E-mails staff invitations and two-factor notices (SMTP_URL or the outbox); left out in tests that mail nobody. */
  staffMailer?: StaffMailer
  /** REQUIRE_2FA: whose accounts must sign in with a code; none when left out (tests). */
  requireTwoFactor?: RequireTwoFactor
  /** Seals the TOTP secrets (DATA_DIR/two-factor.key); left out in tests that set none up, which then fail closed. */
  twoFactorKey?: TwoFactorKey
  /** Sends the webhook deliveries; woken by "Send again" (createWebhookDeliveries). */
  webhooks?: Pick<WebhookDeliveries, 'wake'>
  /** WEBHOOKS_ALLOW_PRIVATE: endpoints on local and private addresses are taken; false when left out. */
  webhooksAllowPrivate?: boolean
  /** Payouts: the PAYPAL_* and ACH_* settings, PayPal's API, the send job to wake; left out, no payout batch route is served. */
  payouts?: {
    settings: PayoutSettings
    /** PayPal's API and PAYPAL_WEBHOOK_ID; unset when PayPal is not set up. */
    paypal: { api: PayPalApi; webhookId: string | undefined } | undefined
    sender: { wake(): void }
  }
}

/** The Express app without listen(): tests drive it through supertest. */
export function createApp({
  db,
  forms,
  intake,
  storage,
  templates,
  agreementCopies,
  requestActivity,
  duplicateScreenshots,
  fraudScores,
  agreementLinks,
  logger,
  evidenceKey,
  paymentsKey,
  agreementPdfs,
  publicLimits,
  proofOfWork: isProofOfWorkOn,
  proofOfWorkTuning,
  languages = loadLanguages({ formsDir: DEFAULT_FORMS_DIR, forms, intake }),
  reviews = loadReviews(DEFAULT_FORMS_DIR, forms.keys()),
  fraud = loadFraudConfigs(DEFAULT_FORMS_DIR, forms.keys()),
  payoutsConfigs = loadPayoutsConfigs(DEFAULT_FORMS_DIR, forms.keys()),
  filings = loadFilings(DEFAULT_FORMS_DIR, forms.keys()),
  batchBuilder,
  batchStore,
  claimCures,
  journey,
  reminders = { wake: () => undefined },
  bulkMoves,
  validators = createValidatorModules({ languages }),
  clientDir,
  trustProxy = ['loopback'],
  publicUrl,
  staffIdleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS,
  staffMailer,
  requireTwoFactor = 'none',
  twoFactorKey,
  webhooks,
  webhooksAllowPrivate = false,
  payouts,
}: AppDeps): Express {
  const claimantJourney =
    journey ??
    createClaimantJourney({ db, config: loadJourneyConfig(DEFAULT_FORMS_DIR), languages, evidenceKey })
  const app = express()
  app.disable('x-powered-by')
  // requireStaff guards /api/staff as written: a route that also answered /API/staff would skip it
  // (each Router is made case-sensitive too, which this setting does not reach)
  app.set('case sensitive routing', true)
  // req.ip, req.protocol and req.secure come from X-Forwarded-* only as far as these proxies vouch for them
  app.set('trust proxy', trustProxy)
  setPublicUrl(app, publicUrl)
  if (requestActivity) app.use(requestActivity.track)
  app.use(healthRoutes({ db, storage, logger }))
  app.use(requestLogger(logger))
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'default-src': ["'self'"],
          // no 'unsafe-eval': the forms validate with ajv code precompiled on the server (validator.js)
          'script-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'style-src': ["'self'"],
          'connect-src': ["'self'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
          'object-src': ["'none'"],
          // off: it would send a plain-HTTP local install's own assets to https
          'upgrade-insecure-requests': null,
        },
      },
    }),
  )
  const proofOfWork = isProofOfWorkOn ? createProofOfWork(db, proofOfWorkTuning) : undefined
  const guardPost = (door: PublicDoor) =>
    guardPublicPost({ db, door, limits: publicLimits, proofOfWork, translators: languages.t })
  // Express walks every route of every router a request enters, allocating as it goes: claims, which come
  // in surges, are matched first and pass no other router
  app.use(
    claimRoutes({
      db,
      forms,
      languages,
      storage,
      templates,
      agreementCopies,
      duplicateScreenshots,
      fraudScores,
      evidenceKey,
      guardPost,
      journey: claimantJourney,
    }),
  )
  // staff: login/logout first, then every other /api/staff route needs a session, whoever adds it;
  // anything outside /api/staff leaves the staff routers at once
  const audit = auditLog(db, evidenceKey)
  const staff = Router({ caseSensitive: true })
  staff.use((req, _res, next) => (req.path.startsWith('/api/staff') ? next() : next('router')))
  staff.use(
    staffAuthRoutes({
      db,
      audit,
      idleTimeoutMs: staffIdleTimeoutMs,
      requireTwoFactor,
      mailer: staffMailer,
      twoFactorKey,
    }),
  )
  staff.use(inviteRoutes({ db, audit, requireTwoFactor }))
  staff.use('/api/staff', requireStaff(db, staffIdleTimeoutMs))
  staff.use(accountRoutes({ db, forms, audit, mailer: staffMailer }))
  staff.use(twoFactorRoutes({ db, audit, requireTwoFactor, mailer: staffMailer, twoFactorKey }))
  staff.use(
    dashboardRoutes({
      db,
      forms,
      intake,
      storage,
      audit,
      languages,
      agreementPdfs,
      reviews,
      fraud,
      evidenceKey,
    }),
  )
  staff.use(assigneeRoutes({ db, forms, evidenceKey }))
  staff.use(auditRoutes({ db, forms, audit }))
  staff.use(reviewRoutes({ db, reviews, evidenceKey, claimCures, storage, audit, filings }))
  staff.use(signedRecordRoutes({ db, audit }))
  staff.use(bulkMoveRoutes({ db, forms, reviews, fraud, bulkMoves }))
  staff.use(filingRoutes({ forms, filings }))
  staff.use(funnelRoutes({ db, forms, audit }))
  staff.use(yearEndRoutes({ db, forms, payoutsConfigs, paymentsKey, audit }))
  staff.use(appCountsRoutes({ db, forms, reviews }))
  staff.use(respondentListRoutes({ db, forms, reviews, evidenceKey, bulkMoves }))
  staff.use(
    filingBatchRoutes({
      db,
      forms,
      filings,
      reviews,
      fraud,
      evidenceKey,
      batchStore,
      builder: batchBuilder,
      claimCures,
      audit,
      storage,
      languages,
      agreementPdfs,
    }),
  )
  staff.use(awardRoutes({ db, forms, reviews, evidenceKey }))
  staff.use(militaryRoutes({ db }))
  staff.use(webhookRoutes({ db, evidenceKey, allowPrivate: webhooksAllowPrivate, deliveries: webhooks }))
  if (payouts) {
    staff.use(payoutRoutes({ db, forms, evidenceKey, audit, paymentsKey, payoutsConfigs, ...payouts }))
  }
  app.use(staff)
  // PayPal posts it: no staff session, no public POST guard (its Origin check and proof of work)
  if (payouts) app.use(payoutWebhookRoutes({ db, evidenceKey, logger, ...payouts }))
  app.use(firmLogoRoutes())
  app.use(uiTextRoutes({ languages }))
  app.use(proofOfWorkRoutes(proofOfWork))
  app.use(
    intakeRoutes({
      db,
      templates,
      languages,
      validators,
      evidenceKey,
      guardPost,
      journey: claimantJourney,
      reminders,
      agreementLinks,
    }),
  )
  app.use(journeyRoutes({ db, journey: claimantJourney, languages, guardPost }))
  app.use(formRoutes({ forms, languages, validators }))
  app.use(
    agreementRoutes({
      db,
      forms,
      languages,
      agreementPdfs,
      agreementLinks,
      guardPost,
      statusOf: (own, locale, now) =>
        claimantStatus({
          db,
          own,
          reviews,
          forms: languages.forms(locale),
          journey: claimantJourney,
          locale,
          now,
        }),
    }),
  )
  app.use(intakeAnswerRoutes({ db, languages, evidenceKey, guardPost }))
  app.use(claimantPayoutRoutes({ db, languages, evidenceKey, paymentsKey, guardPost }))
  app.use(confirmationRoutes({ db, languages, evidenceKey, guardPost }))
  app.use(
    cureRoutes({
      db,
      reviews,
      forms,
      languages,
      evidenceKey,
      storage,
      templates,
      duplicateScreenshots,
      guardPost,
    }),
  )
  app.use('/api', notFoundApi)
  if (clientDir) app.use(staticClient(clientDir, { slugs: new Set(forms.keys()) }))
  app.use(errorHandler({ logger, languages }))
  return app
}
