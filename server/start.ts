import { loadAgreementTemplates } from './agreements/agreement-templates.ts'
import { ensureClientBuild } from './client-build.ts'
import { readServerConfig } from './config.ts'
import { FormConfigError, loadFormConfigs } from './forms/load-form-configs.ts'
import { loadIntakeConfig } from './forms/load-intake-config.ts'
import { CLIENT_DIR, startServer } from './main.ts'

// `npm start`: build the client if stale, migrate, serve; stop with a clear message on bad config
try {
  const config = readServerConfig()
  // a broken config or template stops us before the slower client build
  const templates = loadAgreementTemplates()
  const forms = loadFormConfigs(config.formsDir, { agreementTemplates: templates })
  const intake = loadIntakeConfig(config.formsDir)
  // SKIP_CLIENT_BUILD=1 serves dist/client as it is (built ahead of time, or an API-only test)
  if (process.env.SKIP_CLIENT_BUILD !== '1') {
    await ensureClientBuild(CLIENT_DIR, (message) => console.log(message))
  }
  const server = await startServer(config, { templates, forms, intake })
  console.log(`Claims intake is running on ${server.url}`)
  const stop = () => void server.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  console.error(error instanceof FormConfigError ? error.message : error)
  process.exit(1)
}
