import cluster from 'node:cluster'
import fs from 'node:fs'
import path from 'node:path'
import { AgreementSourcesError } from './agreements/agreement-sources.ts'
import { loadAgreementTemplates } from './agreements/agreement-templates.ts'
import { readServerConfig, serverUrl, SettingError, type ServerConfig } from './config.ts'
import { FormConfigError, loadFormConfigs } from './forms/load-form-configs.ts'
import { loadIntakeConfig } from './forms/load-intake-config.ts'
import { loadLanguages, logLanguageWarnings, type Languages } from './forms/languages.ts'
import { createLogger } from './logger.ts'

/** Run as `npm run start:prod` runs it: compiled to JavaScript by `npm run build`. */
const IS_COMPILED = import.meta.url.endsWith('.js')

// `npm start`: build the client if stale, migrate, serve (SERVER_PROCESSES processes, default 1); stop
// with a clear message on bad config
try {
  const config = readServerConfig()
  // a broken config or template stops us before the slower client build
  const templates = loadAgreementTemplates()
  const forms = loadFormConfigs(config.formsDir, { agreementTemplates: templates })
  const intake = loadIntakeConfig(config.formsDir, { agreementTemplates: templates })
  const languages = loadLanguages({ formsDir: config.formsDir, forms, intake })
  // the server's modules load only once the settings and forms hold: a bad setting is told at once
  const { CLIENT_DIR, startServer } = await import('./main.ts')
  if (cluster.isWorker) {
    // a forked server process: the primary has built the client and prepared the data
    const server = await startServer(config, { templates, forms, intake, languages, prepared: true })
    stopOnSignal(() => server.close())
  } else {
    if (process.env.SKIP_CLIENT_BUILD === '1') {
      // dist/client is served as it is (built ahead of time, or an API-only test)
    } else if (IS_COMPILED) {
      // npm run start:prod: the client was built with the server, by npm run build; no vite here
      if (!fs.existsSync(path.join(CLIENT_DIR, 'index.html'))) {
        throw new Error(`there is no built client in ${CLIENT_DIR}: run \`npm run build\` first`)
      }
    } else {
      const { ensureClientBuild } = await import('./client-build.ts')
      await ensureClientBuild(CLIENT_DIR, (message) => console.log(message))
    }
    if (config.serverProcesses === 1) {
      const server = await startServer(config, { templates, forms, intake, languages })
      console.log(`Claims intake is running on ${server.url}`)
      stopOnSignal(() => server.close())
    } else {
      await startPrimary(config, languages)
    }
  }
} catch (error) {
  console.error(
    error instanceof FormConfigError ||
      error instanceof AgreementSourcesError ||
      error instanceof SettingError
      ? error.message
      : error,
  )
  process.exit(1)
}

/** Prepares the data once, then forks the server processes and watches over them. */
async function startPrimary(config: ServerConfig, languages: Languages): Promise<void> {
  const { prepareData } = await import('./main.ts')
  const { createDb } = await import('./db/create-db.ts')
  const { createScreenshotStorage } = await import('./uploads/create-screenshot-storage.ts')
  const { forkServerProcesses } = await import('./server-processes.ts')
  const logger = createLogger(config.logLevel)
  logLanguageWarnings(languages, logger)
  const { db, dialect } = createDb(config)
  const storage = createScreenshotStorage(config)
  try {
    await prepareData({ db, dialect, storage, config, logger })
  } finally {
    await storage.close()
    await db.destroy()
  }
  const processes = await forkServerProcesses({
    count: config.serverProcesses,
    logger,
    onGiveUp: (reason) => {
      console.error(`Claims intake stopped: ${reason}`)
      process.exit(1)
    },
  })
  console.log(
    `Claims intake is running on ${serverUrl(config.host, processes.port)} (${config.serverProcesses} server processes)`,
  )
  stopOnSignal(() => processes.close())
}

/**
 * SIGINT (Ctrl-C reaches every process of the group) and SIGTERM both stop the server once; a second
 * signal while it finishes its requests does not cut them short.
 */
function stopOnSignal(close: () => Promise<void>): void {
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
