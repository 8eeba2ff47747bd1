import fs from 'node:fs'
import path from 'node:path'
import { loadAgreementTemplates } from '../server/agreements/agreement-templates.ts'
import { ensureClientBuild } from '../server/client-build.ts'
import { readServerConfig } from '../server/config.ts'
import { loadFormConfigs } from '../server/forms/load-form-configs.ts'
import { loadIntakeConfig } from '../server/forms/load-intake-config.ts'
import { createValidatorModules, MINIFIED_VALIDATORS_DIR } from '../server/forms/validator-modules.ts'
import { loadLanguages } from '../server/forms/languages.ts'
import { CLIENT_DIR } from '../server/main.ts'
import { PROJECT_ROOT } from '../server/project-root.ts'
import { compileServer } from './compile-server.ts'

// `npm run build`: everything `npm run start:prod` needs, made with the development dependencies that
// production goes without: the client (vite), the server compiled to JavaScript (tsc), and the
// browser's validators minified (vite's minifier).
const SERVER_OUT_DIR = path.join(PROJECT_ROOT, 'dist', 'server')

const log = (message: string) => console.log(message)

await ensureClientBuild(CLIENT_DIR, log)

log('compiling the server (tsc -p tsconfig.build.json)…')
await compileServer(SERVER_OUT_DIR).catch((error: unknown) => {
  console.error((error as Error).message)
  process.exit(1)
})

log('minifying the browser validators…')
fs.rmSync(MINIFIED_VALIDATORS_DIR, { recursive: true, force: true })
const { formsDir } = readServerConfig()
const templates = loadAgreementTemplates()
const forms = loadFormConfigs(formsDir, { agreementTemplates: templates })
const intake = loadIntakeConfig(formsDir, { agreementTemplates: templates })
await createValidatorModules({ languages: loadLanguages({ formsDir, forms, intake }) }).compileAll()

log(`built: dist/client, dist/server and dist/validators. Start it with \`npm run start:prod\`.`)
