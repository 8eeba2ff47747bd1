import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { schemaParser, type RJSFSchema } from '@rjsf/utils'
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js'
import standaloneCode from 'ajv/dist/standalone/index.js'
import type { FormConfig } from '../../src/form-config.ts'
import type { IntakeConfig } from '../../src/intake-config.ts'
import { LOCALES, type Locale } from '../../src/translate.ts'
import type { Languages } from './languages.ts'
import { PROJECT_ROOT } from '../project-root.ts'

export interface ValidatorModules {
  /** The ESM source for an app's Step 2 schema, in the language of `config` (its messages are in the schema). */
  forForm(config: FormConfig, locale: Locale): Promise<string>
  /** The ESM source for the main form's schema (closed apps are hidden by the page, not by the schema). */
  forIntake(intake: IntakeConfig, locale: Locale): Promise<string>
  /** Compiles every module now (start-up), so a schema ajv cannot turn into browser code stops the server. */
  compileAll(): Promise<void>
}

/**
 * The browser's validators, precompiled with ajv's standalone code so the page needs no eval (no
 * 'unsafe-eval' in the CSP). Each is compiled once, on first use or by compileAll().
 */
export function createValidatorModules({ languages }: { languages: Languages }): ValidatorModules {
  const compiled = new Map<string, Promise<string>>()
  const compileOnce = (name: string, schema: () => RJSFSchema) => {
    let code = compiled.get(name)
    if (code === undefined) {
      code = createValidatorModule(schema(), name)
      compiled.set(name, code)
    }
    return code
  }
  const forForm = (config: FormConfig, locale: Locale) =>
    compileOnce(`form "${config.slug}" (${locale})`, () => config.schema)
  const forIntake = (intake: IntakeConfig, locale: Locale) =>
    compileOnce(`the intake form (${locale})`, () => intake.schema)
  return {
    forForm,
    forIntake,
    async compileAll() {
      await Promise.all(
        LOCALES.flatMap((locale) => [
          // a form not offered in a language is served (and validated) in English there
          ...[...languages.forms(locale).values()]
            .filter((config) => languages.formLocale(config.slug, locale) === locale)
            .map((config) => forForm(config, locale)),
          ...(languages.intakeLocale(locale) === locale ? [forIntake(languages.intake(locale), locale)] : []),
        ]),
      )
    },
  }
}

/**
 * Where the minified validators are kept, by the hash of their source: `npm run build` fills it, so
 * that production (which has no minifier: vite is a development dependency) finds each one there.
 */
export const MINIFIED_VALIDATORS_DIR = path.join(PROJECT_ROOT, 'dist', 'validators')

/**
 * The minified ES module validating `schema` and its sub-schemas, as the browser receives it: from
 * MINIFIED_VALIDATORS_DIR when built before, else minified now and kept there. Without a minifier (a
 * production install whose forms changed after the build) the module goes out unminified, and larger.
 * @example await createValidatorModule(config.schema, 'form "brigit"') // 'const e=…;export{… as validateFns}'
 */
export async function createValidatorModule(schema: RJSFSchema, name: string): Promise<string> {
  const code = createValidatorModuleCode(schema, name)
  const file = path.join(
    MINIFIED_VALIDATORS_DIR,
    `${crypto.createHash('sha256').update(code).digest('hex')}.js`,
  )
  const built = await fs.promises.readFile(file, 'utf8').catch(() => undefined)
  if (built !== undefined) return built
  const minified = await minifyInTurn(code).catch((error: unknown) => {
    if (!isMinifierMissing(error)) throw error
    warnUnminified(name)
    return { code }
  })
  if ('error' in minified) {
    throw new Error(`the browser validator of ${name} could not be minified: ${minified.error}`)
  }
  if (minified.code !== code) {
    // kept for the next start; a read-only install just minifies again then
    await fs.promises
      .mkdir(MINIFIED_VALIDATORS_DIR, { recursive: true })
      .then(() => fs.promises.writeFile(file, minified.code))
      .catch(() => undefined)
  }
  return minified.code
}

function isMinifierMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return (
    code === 'ERR_MODULE_NOT_FOUND' ||
    (typeof message === 'string' && /Cannot find (package|module) 'vite'/.test(message))
  )
}

let warned = false
function warnUnminified(name: string): void {
  if (warned) return
  warned = true
  console.warn(
    `The browser validators (${name} first) are sent unminified: they changed since \`npm run build\` and ` +
      'this install has no minifier. Run `npm run build` again to send them small.',
  )
}

type Minified = { code: string } | { error: string }

let turn: { code: string; resolve(result: Minified): void; reject(error: unknown): void }[] = []

/**
 * Minifies an ES module with vite's minifier in a thread of its own (minify-worker.mjs), so that vite never
 * loads into the server's heap. The modules asked for in one turn of the event loop (all of them, at
 * start-up) share one thread.
 */
function minifyInTurn(code: string): Promise<Minified> {
  return new Promise((resolve, reject) => {
    if (turn.length === 0) {
      setImmediate(() => {
        const modules = turn
        turn = []
        minifyInThread(modules.map((module) => module.code)).then(
          (results) => modules.forEach((module, i) => module.resolve(results[i]!)),
          (error: unknown) => modules.forEach((module) => module.reject(error)),
        )
      })
    }
    turn.push({ code, resolve, reject })
  })
}

function minifyInThread(modules: string[]): Promise<Minified[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./minify-worker.mjs', import.meta.url), { workerData: { modules } })
    let results: Minified[] | undefined
    worker.once('message', (message: Minified[]) => (results = message))
    worker.once('error', reject)
    worker.once('exit', (exitCode) => {
      if (results) resolve(results)
      else reject(new Error(`the validators' minifier thread ended (code ${exitCode}) before it answered`))
    })
  })
}

const require = createRequire(import.meta.url)

/**
 * ajv's runtime helpers that standalone code references as `require("ajv/dist/runtime/…").default`.
 * Each is one self-contained function, so its own source is inlined into the module instead.
 */
const RUNTIME_HELPERS = ['ucs2length', 'equal'].map((name) => {
  const helper = (require(`ajv/dist/runtime/${name}`) as { default: { code: string; toString(): string } })
    .default
  return { reference: helper.code, name: `ajvRuntime_${name}`, source: helper.toString() }
})

/**
 * ESM source validating `schema` and every sub-schema RJSF may check on its own (oneOf options...),
 * keyed by RJSF's schema hash. Uses the same ajv options as the server's validator, so the errors, and
 * therefore validateSubmission's messages, are the same.
 * @example createValidatorModuleCode(config.schema, 'form "brigit"') // 'export const validateFns = …'
 */
export function createValidatorModuleCode(schema: RJSFSchema, name: string): string {
  const schemas = Object.values(schemaParser(schema))
  const ajv = createAjvInstance(undefined, undefined, { code: { source: true, esm: true }, schemas })
  // ESM export names must be identifiers; RJSF's hashes may start with "-", so export v0, v1… and map them
  const exportNames = schemas.map((_schema, index) => `v${index}`)
  const refs = Object.fromEntries(schemas.map((sub, index) => [exportNames[index], String(sub.$id)]))
  let code = standaloneCode(ajv, refs)
  const helpers: string[] = []
  for (const helper of RUNTIME_HELPERS) {
    if (!code.includes(helper.reference)) continue
    code = code.replaceAll(helper.reference, helper.name)
    helpers.push(`const ${helper.name} = ${helper.source};`)
  }
  const unresolved = /require\("[^"]*"\)/.exec(code)
  if (unresolved) {
    throw new Error(`the browser validator of ${name} needs ${unresolved[0]}, which it cannot load`)
  }
  const map = schemas.map((sub, index) => `${JSON.stringify(sub.$id)}: ${exportNames[index]}`).join(', ')
  return [...helpers, code, `export const validateFns = { ${map} };`, ''].join('\n')
}
