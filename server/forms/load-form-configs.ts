import fs from 'node:fs'
import path from 'node:path'
import type { ErrorObject } from 'ajv'
import type { FormConfig } from '../../src/form-config.ts'
import { compileConfigSchema } from './config-schemas.ts'
import { hasPointer, mergeConfig } from './merge-config.ts'

export const META_SCHEMA_FILE = 'form-config.schema.json'
/** What every Step 2 form shares (fields, messages, limits, upload and signature rules); forms/<slug>.json holds what differs. */
export const BASE_CONFIG_FILE = path.join('base', 'step2.json')
/** forms/intake.json describes the main intake form, not a Step 2 app (see load-intake-config.ts). */
export const INTAKE_CONFIG_FILE = 'intake.json'

/** Every problem found in forms/, one line each: `forms/brigit.json: /slug: must match pattern …`. */
export class FormConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`invalid form config:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    this.name = 'FormConfigError'
    this.problems = problems
  }
}

/** Each loaded config's own file as written (before the base was laid under it). */
const ownValues = new WeakMap<FormConfig, unknown>()

/**
 * The file a value of an app's config comes from, as problems name it: the app's own file when it sets
 * the value at this JSON pointer, else the shared base. A config not loaded here is its own file.
 */
export function configFileOf(formsDir: string, config: FormConfig, pointer: string): string {
  return valueFile(formsDir, `${config.slug}.json`, ownValues.get(config), pointer)
}

function valueFile(formsDir: string, name: string, own: unknown, pointer: string): string {
  const folder = path.basename(formsDir)
  return own === undefined || hasPointer(own, pointer)
    ? path.join(folder, name)
    : path.join(folder, BASE_CONFIG_FILE)
}

/**
 * Reads every forms/<slug>.json, lays it over forms/base/step2.json (mergeConfig) and checks the result
 * against forms/form-config.schema.json. A problem names the file the offending value comes from (the
 * app's own file when it sets it, else the base) and its JSON pointer. Collects all problems and
 * throws them together, so one start-up shows everything to fix.
 */
export function loadFormConfigs(
  formsDir: string,
  { agreementTemplates }: { agreementTemplates?: { has(name: string): boolean } } = {},
): Map<string, FormConfig> {
  const metaSchemaPath = path.join(formsDir, META_SCHEMA_FILE)
  const metaSchema = readJson(metaSchemaPath)
  if (!metaSchema.ok) throw new FormConfigError([`${metaSchemaPath}: ${metaSchema.reason}`])
  const checkConfig = compileConfigSchema('meta', metaSchema.value)

  const base = readJson(path.join(formsDir, BASE_CONFIG_FILE))
  if (!base.ok) {
    throw new FormConfigError([`${path.join(path.basename(formsDir), BASE_CONFIG_FILE)}: ${base.reason}`])
  }

  const problems: string[] = []
  const configs = new Map<string, FormConfig>()
  const files = fs
    .readdirSync(formsDir)
    .filter((name) => name.endsWith('.json') && !name.endsWith('.schema.json') && name !== INTAKE_CONFIG_FILE)
    .sort()
  for (const name of files) {
    const file = path.join(path.basename(formsDir), name)
    const parsed = readJson(path.join(formsDir, name))
    if (!parsed.ok) {
      problems.push(`${file}: ${parsed.reason}`)
      continue
    }
    const merged = mergeConfig(base.value, parsed.value)
    if (!checkConfig(merged)) {
      for (const error of checkConfig.errors ?? []) {
        problems.push(...describeErrors(valueFile(formsDir, name, parsed.value, error.instancePath), [error]))
      }
      continue
    }
    // the app's review, filing and payouts are read with their configs (server/lifecycle/load-review-config.ts,
    // server/filing/load-filing-config.ts, server/payouts/load-payouts-config.ts), not served to claimants
    const {
      review: _review,
      filing: _filing,
      payouts: _payouts,
      ...config
    } = merged as FormConfig & { review?: unknown; filing?: unknown; payouts?: unknown }
    ownValues.set(config, parsed.value)
    const expectedSlug = name.slice(0, -'.json'.length)
    if (config.slug !== expectedSlug) {
      problems.push(`${file}: /slug: "${config.slug}" must equal the file name "${expectedSlug}"`)
    }
    // a form's own schema must compile too, in strict mode
    try {
      compileConfigSchema('form', config.schema)
    } catch (error) {
      problems.push(`${file}: /schema: ${(error as Error).message}`)
    }
    for (const field of config.schema.required ?? []) {
      if (!config.schema.properties?.[field]) {
        problems.push(`${file}: /schema/required: "${field}" is required but has no property`)
      }
    }
    if (agreementTemplates && !agreementTemplates.has(config.agreement.template)) {
      problems.push(`${file}: /agreement/template: no agreements/${config.agreement.template}.hbs`)
    }
    configs.set(config.slug, config)
  }
  if (files.length === 0) problems.push(`${formsDir}: no form config (*.json) found`)
  if (problems.length > 0) throw new FormConfigError(problems)
  return configs
}

export function readJson(file: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(fs.readFileSync(file, 'utf8')) }
  } catch (error) {
    return { ok: false, reason: (error as Error).message }
  }
}

export function describeErrors(file: string, errors: ErrorObject[]): string[] {
  return errors.map((error) => {
    const pointer = error.instancePath || '/'
    const detail =
      error.keyword === 'additionalProperties'
        ? `unknown property "${String(error.params.additionalProperty)}"`
        : error.keyword === 'enum'
          ? `${error.message}: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
          : error.keyword === 'const'
            ? `${error.message}: ${JSON.stringify(error.params.allowedValue)}`
            : error.message
    return `${file}: ${pointer}: ${detail}`
  })
}
