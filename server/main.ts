import type { Server } from 'node:http'
import path from 'node:path'
import type { FormConfig } from '../src/form-config.ts'
import type { IntakeConfig } from '../src/intake-config.ts'
import { createAgreementCopies } from './agreements/agreement-copies.ts'
import { createAgreementMailer } from './agreements/agreement-mailer.ts'
import { loadAgreementTemplates, type AgreementTemplates } from './agreements/agreement-templates.ts'
import { createApp } from './app.ts'
import { ensureAdminPassword } from './staff/admin-password.ts'
import type { ServerConfig } from './config.ts'
import { createDb, SQLITE_FILE_NAME } from './db/create-db.ts'
import { migrateToLatest } from './db/migrate.ts'
import { startWalCheckpointer } from './db/wal-checkpointer.ts'
import { loadFormConfigs } from './forms/load-form-configs.ts'
import { loadIntakeConfig } from './forms/load-intake-config.ts'
import { createValidatorModules } from './forms/validator-modules.ts'
import { createLogger } from './logger.ts'
import { removeOrphanScreenshots } from './uploads/remove-orphan-screenshots.ts'
import { createDiskScreenshotStorage } from './uploads/screenshot-storage.ts'

export const CLIENT_DIR = path.resolve(import.meta.dirname, '..', 'dist', 'client')

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
    intake = loadIntakeConfig(config.formsDir),
  }: { templates?: AgreementTemplates; forms?: Map<string, FormConfig>; intake?: IntakeConfig } = {},
): Promise<RunningServer> {
  // the browser's validators, compiled before anything else starts: a schema that fails stops us here
  const validators = createValidatorModules({ forms, intake })
  await validators.compileAll()
  const logger = createLogger(config.logLevel)
  const mailer = createAgreementMailer({
    smtpUrl: config.smtpUrl,
    dataDir: config.dataDir,
    from: config.mailFrom,
    logger,
  })
  const { db, dialect } = createDb(config)
  await migrateToLatest(db)
  // SQLite: the write-ahead log is copied into the database off the event loop
  const checkpointer =
    dialect === 'sqlite'
      ? await startWalCheckpointer({ db, file: path.join(config.dataDir, SQLITE_FILE_NAME), logger })
      : undefined
  await ensureAdminPassword({
    db,
    adminPassword: config.adminPassword,
    // printed once, to the terminal only: the database keeps just its hash
    announce: (password) =>
      console.log(
        `\nNo ADMIN_PASSWORD was set, so one was generated. Staff password: ${password}\n` +
          'Keep it somewhere safe: it is not stored and will not be shown again. Set ADMIN_PASSWORD to change it.\n',
      ),
  })
  const storage = createDiskScreenshotStorage(config.dataDir)
  // before listening: a crash (or a killed purge) may have left screenshot files that no claim names
  const sweep = await removeOrphanScreenshots({ db, dialect, storage })
  logger.info({ screenshotFiles: sweep.files, orphansRemoved: sweep.removed }, 'screenshot recovery')
  const agreementCopies = createAgreementCopies({ db, mailer, forms, logger })
  // copies queued before a restart (or that failed and came due) go out now
  agreementCopies.wake()
  const app = createApp({
    db,
    forms,
    intake,
    storage,
    templates,
    agreementCopies,
    logger,
    validators,
    clientDir: CLIENT_DIR,
  })
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening))
    listening.once('error', reject)
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`
  logger.info({ url, forms: forms.size, database: config.databaseUrl ? 'postgres' : 'sqlite' }, 'listening')
  return {
    url,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await agreementCopies.stop()
      await checkpointer?.stop()
      await db.destroy()
    },
  }
}
