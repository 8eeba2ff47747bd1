import type { Server } from 'node:http'
import type { Kysely } from 'kysely'
import path from 'node:path'
import { loadFilings } from './filing/load-filing-config.ts'
import { PROJECT_ROOT } from './project-root.ts'
import type { FormConfig } from '../src/form-config.ts'
import type { IntakeConfig } from '../src/intake-config.ts'
import { createAgreementLinks } from './agreements/agreement-links.ts'
import { createAgreementMailer } from './agreements/agreement-mailer.ts'
import { mailDelivery } from './platform/mail-delivery.ts'
import { createBatchStore } from './filing/batch-store.ts'
import { filingPdfThread } from './filing/filing-pdfs.ts'
import { loadAgreementTemplates, type AgreementTemplates } from './agreements/agreement-templates.ts'
import { createApp } from './app.ts'
import { loadPaymentsKey } from './payouts/sealed-numbers.ts'
import { paypalApi } from './payouts/providers/paypal-api.ts'
import { startBackgroundJobs } from './background-jobs.ts'
import { setOwnOrigin } from './public-origin.ts'
import { ensureFirstAdmin } from './staff/first-admin.ts'
import { createStaffMailer } from './staff/staff-mailer.ts'
import { serverUrl, type ServerConfig } from './config.ts'
import { createDb, SQLITE_FILE_NAME } from './db/create-db.ts'
import type { Database, Dialect } from './db/database.ts'
import { migrateToLatest } from './db/migrate.ts'
import { asOwner, grantServerRole } from './db/server-role.ts'
import { loadTwoFactorKey, sealClearTotpSecrets } from './staff/two-factor/two-factor-key.ts'
import { startWalCheckpointer } from './db/wal-checkpointer.ts'
import { loadFormConfigs } from './forms/load-form-configs.ts'
import { loadIntakeConfig } from './forms/load-intake-config.ts'
import { createValidatorModules } from './forms/validator-modules.ts'
import { loadReviews } from './lifecycle/load-review-config.ts'
import { loadFraudConfigs } from './fraud/load-fraud-config.ts'
import { loadPayoutsConfigs } from './payouts/load-payouts-config.ts'
import type { FraudConfigs } from '../src/fraud-config.ts'
import { syncReviewRoles } from './lifecycle/review-roles.ts'
import { syncFraudHolds } from './fraud/fraud-holds.ts'
import type { Reviews } from '../src/review-config.ts'
import { claimNextSteps } from './journey/claim-next-steps.ts'
import { createClaimantJourney } from './journey/claimant-journey.ts'
import { loadJourneyConfig } from './journey/journey-config.ts'
import { twilioSms } from './journey/sms.ts'
import { loadLanguages, logLanguageWarnings, type Languages } from './forms/languages.ts'
import { createLogger, type Logger } from './logger.ts'
import { openEvidenceKey } from './evidence/open-evidence-key.ts'
import { ANCHOR_LEDGER } from './evidence/anchor-ledger.job.ts'
import { loadPdfCertificate } from './agreements/pdf-seal.ts'
import { agreementPdfThread } from './agreements/agreement-pdfs.ts'
import { removeOrphanScreenshots } from './uploads/remove-orphan-screenshots.ts'
import { startContentThread, stopContentThreads } from './claim-content/claim-content.ts'
import { createScreenshotStorage } from './uploads/create-screenshot-storage.ts'
import type { ScreenshotStorage } from './uploads/screenshot-storage.ts'
import { requestActivity } from './request-activity.ts'
import { screenshotHashThread } from './duplicates/screenshot-hasher.ts'

export const CLIENT_DIR = path.join(PROJECT_ROOT, 'dist', 'client')

export interface RunningServer {
  url: string
  close(): Promise<void>
}

/** env → forms → validators → db → migrate → recover screenshots → createApp() → listen. Throws (and listens on nothing) when a step fails. */
export async function startServer(
  config: ServerConfig,
  {
    templates = loadAgreementTemplates(),
    forms = loadFormConfigs(config.formsDir, { agreementTemplates: templates }),
    intake = loadIntakeConfig(config.formsDir, { agreementTemplates: templates }),
    languages = loadLanguages({ formsDir: config.formsDir, forms, intake }),
    prepared = false,
  }: {
    templates?: AgreementTemplates
    forms?: Map<string, FormConfig>
    intake?: IntakeConfig
    languages?: Languages
    /** true in a forked server process: the primary has already run prepareData. */
    prepared?: boolean
  } = {},
): Promise<RunningServer> {
  // a broken review, filing, journey, fraud or payouts config stops us before anything starts, as a broken form does
  const reviews = loadReviews(config.formsDir, forms.keys())
  const fraud = loadFraudConfigs(config.formsDir, forms.keys())
  const payoutsConfigs = loadPayoutsConfigs(config.formsDir, forms.keys())
  const filings = loadFilings(config.formsDir, forms.keys())
  const journeyConfig = loadJourneyConfig(config.formsDir)
  // the browser's validators, compiled before anything else starts: a schema that fails stops us here
  const validators = createValidatorModules({ languages })
  await validators.compileAll()
  // the thread that checks claims' files and renders their agreements, loaded before the first claim
  await startContentThread(templates)
  const logger = createLogger(config.logLevel)
  // with several server processes, their primary has logged them once
  if (!prepared) logLanguageWarnings(languages, logger)
  const mailer = createAgreementMailer({
    smtpUrl: config.smtpUrl,
    dataDir: config.dataDir,
    from: config.mailFrom,
    logger,
  })
  const { db, dialect } = createDb(config)
  const storage = createScreenshotStorage(config)
  // with several server processes, the primary has done this once before forking them
  if (!prepared) {
    await prepareData({ db, dialect, storage, config, logger, reviews, fraud, apps: forms.keys() })
  }
  // the key the evidence seals are made with, kept out of the database (made on the first start)
  const evidenceKey = await openEvidenceKey({
    db,
    setting: config.evidenceKey,
    dataDir: config.dataDir,
  }).catch(async (error: unknown) => {
    await storage.close()
    await db.destroy()
    throw error
  })
  // SQLite: the write-ahead log is copied into the database off the event loop
  const checkpointer =
    dialect === 'sqlite'
      ? await startWalCheckpointer({ db, file: path.join(config.dataDir, SQLITE_FILE_NAME), logger })
      : undefined
  const agreementPdfs = agreementPdfThread({
    certificate: loadPdfCertificate(config),
    tsaUrl: config.tsaUrl,
    languages,
    logger,
  })
  // the background work (copies, screenshot checks) waits for the server's requests: claims come first
  const requests = requestActivity()
  const sms = config.sms ? twilioSms(config.sms) : undefined
  const journey = createClaimantJourney({ db, config: journeyConfig, languages, evidenceKey, sms })
  const staffMailer = createStaffMailer({
    smtpUrl: config.smtpUrl,
    dataDir: config.dataDir,
    from: config.mailFrom,
    logger,
  })
  // taxpayer and bank numbers are sealed under a key of their own, kept out of the database
  const paymentsKey = loadPaymentsKey({ setting: config.paymentsKey, dataDir: config.dataDir })
  const paypalSettings = config.payouts.paypal
  const paypal = paypalSettings
    ? { api: paypalApi(paypalSettings), webhookId: paypalSettings.webhookId }
    : undefined
  const batchDir = path.join(config.dataDir, 'batches')
  const batchStore = createBatchStore({ batchDir, s3: config.s3 })
  const filingPdfs = filingPdfThread()
  const {
    jobs,
    batchBuilder,
    claimCures,
    bulkMoves,
    agreementCopies,
    duplicateScreenshots,
    webhooks,
    reminders,
    fraudScores,
    payoutSender,
  } = startBackgroundJobs({
    db,
    logger,
    requests,
    agreementCopies: {
      mailer,
      forms,
      agreementPdfs,
      translators: languages.t,
      publicUrl: config.publicUrl,
      nextSteps: (claimId) => claimNextSteps({ db, journey, claimId, forPage: false }),
    },
    // claims whose screenshot another claimant sent too, found off the request path
    duplicateScreenshots: { storage, hasher: screenshotHashThread() },
    webhooks: { evidenceKey, allowPrivate: config.webhooksAllowPrivate },
    claimCures: {
      reviews,
      forms,
      evidenceKey,
      deliver: mailDelivery({ smtpUrl: config.smtpUrl, dataDir: config.dataDir }),
      from: config.mailFrom,
      translators: languages.t,
      publicUrl: config.publicUrl,
    },
    bulkMoves: { reviews, evidenceKey },
    batchBuilder: {
      forms,
      filings,
      reviews,
      fraud,
      evidenceKey,
      pdfs: filingPdfs,
      batchDir,
      store: batchStore,
    },
    // the e-mail after each intake and the reminders, in the claimants' daytime at the set rate
    reminders: {
      journey,
      config: journeyConfig,
      languages,
      agreementPdfs,
      deliver: mailDelivery({ smtpUrl: config.smtpUrl, dataDir: config.dataDir }),
      from: config.mailFrom,
      publicUrl: config.publicUrl,
      perMinute: config.remindersPerMinute,
      sms,
    },
    // each claim's fraud score, after it is stored
    fraudScores: { storage, fraud },
    ledgerAnchor: { evidenceKey, dataDir: config.dataDir, staffMailer },
    payouts: {
      evidenceKey,
      paypal: paypal?.api,
      firstCheckNumber: config.payouts.firstCheckNumber,
    },
  })
  // copies queued before a restart (or that failed and came due) go out now
  agreementCopies.wake()
  duplicateScreenshots.wake()
  const agreementLinks = createAgreementLinks({ db, mailer, translators: languages.t, logger })
  // links that expired while no server ran still hold a contact; later ones go as lookups come
  await agreementLinks.pruneNow()
  // the ledger's head, kept beside the key every minute and at close, and mailed to the admins daily
  jobs.wake(ANCHOR_LEDGER)
  claimCures.wake()
  reminders.wake()
  // claims stored before a restart, or whose ring grew, are scored
  fraudScores.wake()
  // bulk moves queued before a restart, or left by a process that died, go on
  bulkMoves.wake()
  // batches started before a restart, or left by a process that died, are built again
  batchBuilder.wake()
  // webhook deliveries queued before a restart, or due for a retry, go out
  webhooks.wake()
  // payout batches approved before a restart, or due for a retry, are sent
  payoutSender.wake()
  const app = createApp({
    payouts: { settings: config.payouts, paypal, sender: payoutSender },
    batchBuilder,
    batchStore,
    reviews,
    fraud,
    payoutsConfigs,
    filings,
    claimCures,
    journey,
    reminders,
    bulkMoves,
    db,
    forms,
    intake,
    storage,
    templates,
    agreementCopies,
    requestActivity: requests,
    duplicateScreenshots,
    fraudScores,
    agreementLinks,
    logger,
    evidenceKey,
    paymentsKey,
    agreementPdfs,
    publicLimits: config.publicLimits,
    proofOfWork: config.proofOfWork,
    languages,
    validators,
    clientDir: CLIENT_DIR,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    staffIdleTimeoutMs: config.staffIdleTimeoutMs,
    staffMailer,
    requireTwoFactor: config.requireTwoFactor,
    twoFactorKey: loadTwoFactorKey(config.dataDir),
    webhooks,
    webhooksAllowPrivate: config.webhooksAllowPrivate,
  })
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening))
    listening.once('error', reject)
  })
  const address = server.address()
  const url = serverUrl(config.host, typeof address === 'object' && address ? address.port : config.port)
  // without PUBLIC_URL, e-mailed links point here (public-origin.ts): the port is known only now
  setOwnOrigin(app, url)
  logger.info(
    {
      url,
      forms: forms.size,
      database: config.databaseUrl ? 'postgres' : 'sqlite',
      screenshots: config.s3 ? 's3' : 'disk',
    },
    'listening',
  )
  return {
    url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await jobs.stop()
      await agreementLinks.settled()
      await filingPdfs.stop()
      await agreementPdfs.stop()
      await checkpointer?.stop()
      await storage.close()
      await stopContentThreads()
      await db.destroy()
    },
  }
}

/**
 * What must happen once before any process serves the data: migrations, the review roles and fraud
 * holds the database's triggers read, the staff password, and the removal of screenshot files a crash
 * left without a claim.
 */
export async function prepareData({
  db,
  dialect,
  storage,
  config,
  logger,
  reviews,
  fraud,
  apps: appsGiven,
}: {
  db: Kysely<Database>
  dialect: Dialect
  storage: ScreenshotStorage
  config: ServerConfig
  logger: Logger
  reviews: Reviews
  /** Each app's fraud config; read from the forms folder when left out. */
  fraud?: FraudConfigs
  apps: Iterable<string>
}): Promise<void> {
  const apps = [...appsGiven]
  if (config.databaseOwnerUrl) {
    // the tables' owner migrates, then grants the server's own role what it may do
    const { db: owner } = createDb(asOwner(config))
    try {
      await migrateToLatest(owner)
      await grantServerRole(owner, config.databaseUrl!)
    } finally {
      await owner.destroy()
    }
  } else {
    await migrateToLatest(db)
  }
  const recounted = await syncReviewRoles({ db, reviews, apps })
  if (recounted.length > 0)
    logger.info({ apps: recounted }, "review roles changed: the funnel's approved recounted")
  const holds = await syncFraudHolds({ db, fraud: fraud ?? loadFraudConfigs(config.formsDir, apps), apps })
  if (holds.length > 0) logger.info({ apps: holds }, "hold thresholds changed: the funnel's held recounted")
  const firstAdmin = await ensureFirstAdmin({
    db,
    adminEmail: config.adminEmail,
    adminPassword: config.adminPassword,
    dataDir: config.dataDir,
    siteOrigin: config.publicUrl ?? serverUrl(config.host, config.port),
  })
  // only the file's path: the link in it is a credential, and terminals end up in service logs
  if (firstAdmin.kind === 'setup-link') {
    console.log(
      `\nNo staff account exists yet. Open the one-time link in ${firstAdmin.file} to create the first admin ` +
        '(or set ADMIN_EMAIL and ADMIN_PASSWORD and start again).\n',
    )
  }
  if (firstAdmin.kind === 'created') logger.info('first admin account created from ADMIN_EMAIL')
  // TOTP secrets stored in clear by an older version are sealed under DATA_DIR/two-factor.key
  const sealedSecrets = await sealClearTotpSecrets(db, loadTwoFactorKey(config.dataDir))
  if (sealedSecrets > 0) logger.info({ sealedSecrets }, 'two-factor secrets sealed with two-factor.key')
  // before listening: a crash (or a killed purge) may have left screenshot files that no claim names
  const sweep = await removeOrphanScreenshots({ db, dialect, storage })
  logger.info({ screenshotFiles: sweep.files, orphansRemoved: sweep.removed }, 'screenshot recovery')
}
