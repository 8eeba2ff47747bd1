import { twilioSms, type SmsSettings } from '../../../server/journey/sms.ts'
import { createClaimantJourney, type ClaimantJourney } from '../../../server/journey/claimant-journey.ts'
import { loadJourneyConfig } from '../../../server/journey/journey-config.ts'
import { claimNextSteps } from '../../../server/journey/claim-next-steps.ts'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Express } from 'express'
import type { Insertable, Kysely } from 'kysely'
import pg from 'pg'
import { inject } from 'vitest'
import type { FormConfig } from '../../../src/form-config.ts'
import type { IntakeConfig } from '../../../src/intake-config.ts'
import type { AgreementCopies } from '../../../server/agreements/agreement-copies.ts'
import { startBackgroundJobs } from '../../../server/background-jobs.ts'
import type { JobKinds } from '../../../server/jobs/job-runner.ts'
import { loadFraudConfigs } from '../../../server/fraud/load-fraud-config.ts'
import type { FraudConfigs } from '../../../src/fraud-config.ts'
import { loadPayoutsConfigs } from '../../../server/payouts/load-payouts-config.ts'
import type { PayoutsConfigs } from '../../../src/payouts-config.ts'
import { createAgreementLinks, type AgreementLinks } from '../../../server/agreements/agreement-links.ts'
import { createAgreementMailer } from '../../../server/agreements/agreement-mailer.ts'
import { mailDelivery } from '../../../server/platform/mail-delivery.ts'
import type { ClaimCures } from '../../../server/review/claim-cures.ts'
import type { BulkMoves } from '../../../server/review/bulk-moves.ts'
import type { BatchBuilder } from '../../../server/filing/batch-builder.ts'
import { createBatchStore } from '../../../server/filing/batch-store.ts'
import type { WebhookDeliveries } from '../../../server/webhooks/webhook-deliveries.ts'
import { filingPdfThread } from '../../../server/filing/filing-pdfs.ts'
import { loadFilings } from '../../../server/filing/load-filing-config.ts'
import { loadReviewConfig, loadReviews } from '../../../server/lifecycle/load-review-config.ts'
import { syncReviewRoles } from '../../../server/lifecycle/review-roles.ts'
import { syncFraudHolds } from '../../../server/fraud/fraud-holds.ts'
import type { Reviews } from '../../../src/review-config.ts'
import { loadAgreementTemplates } from '../../../server/agreements/agreement-templates.ts'
import { createApp } from '../../../server/app.ts'
import type { RequireTwoFactor, S3Settings, TrustProxy } from '../../../server/config.ts'
import { ensureFirstAdmin } from '../../../server/staff/first-admin.ts'
import { createStaffMailer } from '../../../server/staff/staff-mailer.ts'
import { createDb, SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import type { ClaimsTable, Database } from '../../../server/db/database.ts'
import { migrateToLatest } from '../../../server/db/migrate.ts'
import { MIGRATED_TEMPLATE } from './postgres-template.ts'
import { loadFormConfigs } from '../../../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../../../server/forms/load-intake-config.ts'
import { loadEvidenceKey } from '../../../server/evidence/evidence-key.ts'
import { loadPaymentsKey } from '../../../server/payouts/sealed-numbers.ts'
import { loadTwoFactorKey, type TwoFactorKey } from '../../../server/staff/two-factor/two-factor-key.ts'
import { removeSealed } from '../../../server/ops/purge-expired.ts'
import { loadPdfCertificate, PDF_SIGNING_FILE } from '../../../server/agreements/pdf-seal.ts'
import { agreementPdfThread, type AgreementPdfs } from '../../../server/agreements/agreement-pdfs.ts'
import { loadLanguages } from '../../../server/forms/languages.ts'
import { createLogger, type Logger } from '../../../server/logger.ts'
import { createScreenshotStorage } from '../../../server/uploads/create-screenshot-storage.ts'
import type { ScreenshotStorage } from '../../../server/uploads/screenshot-storage.ts'
import type { PublicLimits } from '../../../server/public-doors.ts'
import type { ProofOfWorkTuning } from '../../../server/proof-of-work/proof-of-work.ts'
import { DEFAULT_FIRST_CHECK_NUMBER, type PayoutSettings } from '../../../server/payouts/payout-settings.ts'
import type { PayPalApi } from '../../../server/payouts/providers/paypal-api.ts'

export { makeClaimData, makePng, pngDataUrl } from './claim-fixtures.ts'

/** The real agreements/ templates, compiled once for the whole file. */
export const TEMPLATES = loadAgreementTemplates()

/** The first admin of every test database (ADMIN_EMAIL and ADMIN_PASSWORD). */
export const ADMIN_EMAIL = 'admin@firm.test'
export const ADMIN_PASSWORD = 'correct horse battery staple'

/**
 * Every test's requests come from one address: limits above what any test sends, but for the tests of
 * the limits themselves, which give their own.
 */
export const TEST_PUBLIC_LIMITS: PublicLimits = { perAddress: 100_000, globalPerMinute: 1_000_000 }

export const DIALECTS = ['sqlite', 'postgres'] as const
export type TestDialect = (typeof DIALECTS)[number]

export const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'forms')
export const FIXTURES_DIR = path.resolve(import.meta.dirname, '..', '..', 'fixtures')

/** Reads a file from tests/fixtures/. */
export function readFixture(name: string): Buffer {
  return fs.readFileSync(path.join(FIXTURES_DIR, name))
}

export interface TestContext {
  app: Express
  db: Kysely<Database>
  dataDir: string
  /** The key of this context's evidence seals (its DATA_DIR/evidence.key). */
  evidenceKey: Buffer
  /** The key its taxpayer and bank numbers are sealed with (its DATA_DIR/payments.key). */
  paymentsKey: Buffer
  /** The key its TOTP secrets are sealed with (its DATA_DIR/two-factor.key). */
  twoFactorKey: TwoFactorKey
  /** Seals this context's PDFs (its DATA_DIR/pdf-signing.p12). */
  agreementPdfs: AgreementPdfs
  storage: ScreenshotStorage
  forms: Map<string, FormConfig>
  /** Each app's review config, as the server loads it from the context's forms folder. */
  reviews: Reviews
  intake: IntakeConfig
  agreementCopies: AgreementCopies
  /** Its settled() waits for the links the lookups asked for. */
  agreementLinks: AgreementLinks
  /** Deficiency notices, reminders and cure periods' ends; runDue(now) moves its clock. */
  claimCures: ClaimCures
  /** The bulk moves' jobs; runDue() runs those queued to their end. */
  bulkMoves: BulkMoves
  /** Builds the notice and filing batches' ZIPs: never woken here, runDue() builds those started. */
  batchBuilder: BatchBuilder
  /** The claimant's Step 2 links and answers to the mails (unsubscribe, a text's STOP). */
  journey: ClaimantJourney
  /** The e-mails after each intake and the reminders: never woken here, runDue(now) sends what is due. */
  reminders: JobKinds
  /** Each app's fraud.json (forms/base/fraud.json with the app's own). */
  fraud: FraudConfigs
  /** The claims' fraud scores: never woken here, runDue(now) scores what is due. */
  fraudScores: JobKinds
  /** Each app's payouts.json (forms/base/payouts.json with the app's own). */
  payoutsConfigs: PayoutsConfigs
  /** The webhook deliveries: never woken here, runDue(now) sends what is due. */
  webhooks: WebhookDeliveries
  /** Sends approved payout batches: never woken here, runDue(now) sends what is due. */
  payoutSender: JobKinds
  close(): Promise<void>
}

/**
 * The real app on a real, migrated, empty database: a SQLite file in a fresh DATA_DIR, or a fresh
 * database on the run's PostgreSQL (see global-setup.ts). close() drops both.
 */
export async function createTestContext(
  dialect: TestDialect,
  {
    formsDir = FORMS_DIR,
    logger = createLogger('silent'),
    clientDir,
    trustProxy,
    publicUrl,
    s3,
    publicLimits = TEST_PUBLIC_LIMITS,
    proofOfWork = false,
    proofOfWorkTuning,
    requireTwoFactor,
    remindersPerMinute = 1000,
    sms,
    webhooksAllowPrivate = false,
    webhookTimeoutMs,
    payouts = {},
  }: {
    /** PayPal's API (a stand-in's) and the payout settings; PayPal not set up when left out. */
    payouts?: {
      paypal?: { api: PayPalApi; webhookId: string | undefined }
      settings?: Partial<PayoutSettings>
    }
    /** WEBHOOKS_ALLOW_PRIVATE: endpoints on 127.0.0.1 are taken and reached; off when left out. */
    webhooksAllowPrivate?: boolean
    /** How long a webhook attempt may take; the product's 10 s when left out. */
    webhookTimeoutMs?: number
    /** SMS_PROVIDER's settings, pointing at a stand-in; no text messages when left out. */
    sms?: SmsSettings
    /** REMINDERS_PER_MINUTE; a thousand when left out. */
    remindersPerMinute?: number
    formsDir?: string
    logger?: Logger
    clientDir?: string
    /** TRUST_PROXY as readServerConfig gives it; the product's default (loopback) when left out. */
    trustProxy?: TrustProxy
    /** PUBLIC_URL; each request's own origin when left out. */
    publicUrl?: string
    /** S3_* pointing at a bucket (tests/server/support/s3-process.ts); screenshots under dataDir when left out. */
    s3?: S3Settings
    /** PUBLIC_LIMIT_PER_ADDRESS and PUBLIC_LIMIT_GLOBAL; TEST_PUBLIC_LIMITS when left out. */
    publicLimits?: PublicLimits
    /** PROOF_OF_WORK; off when left out, so a test posts without solving a challenge. */
    proofOfWork?: boolean
    proofOfWorkTuning?: Partial<ProofOfWorkTuning>
    /** REQUIRE_2FA; none when left out, so the first admin signs in with the password alone. */
    requireTwoFactor?: RequireTwoFactor
  } = {},
): Promise<TestContext> {
  const forms = loadFormConfigs(formsDir)
  const intake = loadIntakeConfig(formsDir)
  const dataDir = seededDataDir(dialect)
  const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined
  const { db } = createDb({ databaseUrl: database?.url, dataDir })
  try {
    await migrateToLatest(db as Kysely<unknown>)
  } catch (error) {
    await db.destroy()
    await database?.drop()
    throw error
  }
  await ensureFirstAdmin({
    db,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    dataDir,
    siteOrigin: 'http://claims.test',
  })
  const storage = createScreenshotStorage({ dataDir, s3 })
  // no SMTP_URL: agreement copies land in dataDir/outbox as .eml files the tests can read
  const mailer = createAgreementMailer({
    smtpUrl: undefined,
    dataDir,
    from: 'Claims <claims@example.com>',
    logger,
  })
  const languages = loadLanguages({ formsDir, forms, intake })
  const evidenceKey = loadEvidenceKey({ setting: undefined, dataDir })
  const paymentsKey = loadPaymentsKey({ setting: undefined, dataDir })
  const twoFactorKey = loadTwoFactorKey(dataDir)
  const agreementPdfs = agreementPdfThread({
    certificate: loadPdfCertificate({ pdfSigningP12: undefined, dataDir }),
    tsaUrl: undefined,
    languages,
    logger,
  })
  const smsSender = sms ? twilioSms(sms) : undefined
  const journeyConfig = loadJourneyConfig(formsDir)
  const journey = createClaimantJourney({ db, config: journeyConfig, languages, evidenceKey, sms: smsSender })
  const batchDir = path.join(dataDir, 'batches')
  const batchStore = createBatchStore({ batchDir, s3 })
  const filingPdfs = filingPdfThread()
  // the project's statuses and reasons, with what the served folder's apps change of them
  const reviews = loadReviews(formsDir, forms.keys(), loadReviewConfig(FORMS_DIR))
  // as the server's start-up does: the funnel's triggers read the roles
  await syncReviewRoles({ db, reviews, apps: forms.keys() })
  const fraud = loadFraudConfigs(formsDir, forms.keys())
  const payoutsConfigs = loadPayoutsConfigs(formsDir, forms.keys())
  // as the server's start-up does: the funnel's fraud triggers read the hold thresholds
  await syncFraudHolds({ db, fraud, apps: forms.keys() })
  const payoutSettings: PayoutSettings = {
    paypal: undefined,
    ach: { originRouting: undefined, originAccount: undefined, companyName: undefined, companyId: undefined },
    firstCheckNumber: DEFAULT_FIRST_CHECK_NUMBER,
    ...payouts.settings,
  }
  const {
    jobs,
    batchBuilder,
    claimCures,
    bulkMoves,
    agreementCopies,
    webhooks,
    reminders,
    fraudScores,
    payoutSender,
  } = startBackgroundJobs({
    db,
    logger,
    agreementCopies: {
      mailer,
      forms,
      agreementPdfs,
      translators: languages.t,
      publicUrl,
      nextSteps: (claimId) => claimNextSteps({ db, journey, claimId, forPage: false }),
    },
    webhooks: {
      evidenceKey,
      allowPrivate: webhooksAllowPrivate,
      timeoutMs: webhookTimeoutMs,
      wakeOnEvents: false,
    },
    claimCures: {
      reviews,
      forms,
      evidenceKey,
      deliver: mailDelivery({ smtpUrl: undefined, dataDir }),
      from: 'Claims <claims@example.com>',
      translators: languages.t,
      publicUrl,
    },
    bulkMoves: { reviews, evidenceKey },
    batchBuilder: {
      forms,
      filings: loadFilings(formsDir, forms.keys()),
      reviews,
      fraud,
      evidenceKey,
      pdfs: filingPdfs,
      batchDir,
      store: batchStore,
    },
    reminders: {
      journey,
      config: journeyConfig,
      languages,
      agreementPdfs,
      deliver: mailDelivery({ smtpUrl: undefined, dataDir }),
      from: 'Claims <claims@example.com>',
      publicUrl,
      perMinute: remindersPerMinute,
      sms: smsSender,
    },
    fraudScores: { storage, fraud },
    payouts: {
      evidenceKey,
      paypal: payouts.paypal?.api,
      firstCheckNumber: payoutSettings.firstCheckNumber,
    },
  })
  const agreementLinks = createAgreementLinks({ db, mailer, translators: languages.t, logger })
  const app = createApp({
    db,
    claimCures,
    // no reminders: an intake does not wake the sender; a test sends what is due with runDue, when it chooses
    journey,
    bulkMoves,
    // a batch started waits: a test builds what is due with runDue, when it chooses
    batchBuilder: { wake: () => undefined },
    // a delivery sent again waits too: a test sends what is due with runDue
    webhooks: { wake: () => undefined },
    webhooksAllowPrivate,
    batchStore,
    reviews,
    fraud,
    payoutsConfigs,
    forms,
    intake,
    storage,
    templates: TEMPLATES,
    agreementCopies,
    agreementLinks,
    logger,
    evidenceKey,
    paymentsKey,
    agreementPdfs,
    publicLimits,
    proofOfWork,
    proofOfWorkTuning,
    languages,
    clientDir,
    trustProxy,
    publicUrl,
    staffMailer: createStaffMailer({
      smtpUrl: undefined,
      dataDir,
      from: 'Claims <claims@example.com>',
      logger,
    }),
    requireTwoFactor,
    twoFactorKey,
    // an approval does not wake the sender: a test sends what is due with runDue
    payouts: {
      settings: payoutSettings,
      paypal: payouts.paypal,
      sender: { wake: () => undefined },
    },
  })
  return {
    app,
    db,
    dataDir,
    evidenceKey,
    paymentsKey,
    twoFactorKey,
    agreementPdfs,
    storage,
    forms,
    reviews,
    intake,
    agreementCopies,
    agreementLinks,
    claimCures,
    bulkMoves,
    batchBuilder,
    journey,
    reminders,
    fraud,
    fraudScores,
    payoutsConfigs,
    webhooks,
    payoutSender,
    async close() {
      await filingPdfs.stop()
      await jobs.stop()
      await agreementLinks.settled()
      await agreementPdfs.stop()
      await storage.close()
      await db.destroy()
      await database?.drop()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Empties the claims (and their signed records, by the purge path the database allows), the rate
 * limits, the screenshots and the outbox.
 */
export async function clearClaims({
  db,
  dataDir,
  evidenceKey,
}: Pick<TestContext, 'db' | 'dataDir' | 'evidenceKey'>): Promise<void> {
  const ids = (await db.selectFrom('claims').select('id').execute()).map(({ id }) => Number(id))
  for (let start = 0; start < ids.length; start += 500) {
    await db
      .transaction()
      .execute((trx) =>
        removeSealed(trx, evidenceKey, { kind: 'claim', ids: ids.slice(start, start + 500), detail: {} }),
      )
  }
  await db.deleteFrom('rate_limits').execute()
  await db.deleteFrom('agreement_links').execute()
  fs.rmSync(path.join(dataDir, 'screenshots'), { recursive: true, force: true })
  fs.rmSync(path.join(dataDir, 'outbox'), { recursive: true, force: true })
}

/** Writes a claim row alone (no signed record, no screenshot): for tests of what reads claims. */
export async function insertClaim(
  db: Kysely<Database>,
  row: Insertable<ClaimsTable>,
): Promise<{ id: number }> {
  const { id } = await db.insertInto('claims').values(row).returning('id').executeTakeFirstOrThrow()
  return { id: Number(id) }
}

export async function countClaims(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom('claims')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** Every file under dataDir/screenshots, as paths relative to it ('brigit-screenshots/…png'), sorted. */
export function listScreenshotFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'screenshots')
  if (!fs.existsSync(root)) return []
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name)
      return entry.isDirectory() ? walk(full) : [path.relative(root, full).split(path.sep).join('/')]
    })
  return walk(root).sort()
}

/** A fresh, empty database on the run's PostgreSQL (see global-setup.ts); drop() removes it. */
/**
 * A new database on the run's PostgreSQL, migrated (a copy of the run's template, global-setup.ts) unless
 * `migrated: false` asks for an empty one, for a test of what the server does to a database it migrates.
 */
/**
 * A new DATA_DIR holding copies of the run's migrated SQLite database (for SQLite) and PDF certificate
 * (global-setup.ts, seedDataDir): what the server would make on its first start, made once. The copies
 * keep the source's private file mode.
 */
function seededDataDir(dialect: TestDialect): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-data-'))
  const seed = inject('seedDataDir')
  const files = dialect === 'sqlite' ? [SQLITE_FILE_NAME, PDF_SIGNING_FILE] : [PDF_SIGNING_FILE]
  for (const file of files) fs.copyFileSync(path.join(seed, file), path.join(dataDir, file))
  return dataDir
}

export async function createPostgresDatabase({ migrated = true }: { migrated?: boolean } = {}): Promise<{
  url: string
  drop(): Promise<void>
}> {
  const adminUrl = inject('postgresUrl')
  const name = `test_${crypto.randomBytes(6).toString('hex')}`
  const template = migrated ? ` TEMPLATE ${MIGRATED_TEMPLATE}` : ''
  await withAdminClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}${template}`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () =>
      withAdminClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  }
}

async function withAdminClient(url: string, run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await run(client)
  } finally {
    await client.end()
  }
}

/** Adds translations to a copy of forms/ (forms/es/config.json), as a firm does for a new text. */
export function addSpanishTexts(formsDir: string, texts: Record<string, string>): void {
  const file = path.join(formsDir, 'es', 'config.json')
  const current = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>
  fs.writeFileSync(file, JSON.stringify({ ...current, ...texts }, null, 2))
}
