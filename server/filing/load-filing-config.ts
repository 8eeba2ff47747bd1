import fs from 'node:fs'
import path from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import type { FeeTier, FilingSettings, ProviderProfile } from '../../src/filing-config.ts'
import { FormConfigError, readJson } from '../forms/load-form-configs.ts'
import { mergeConfig } from '../forms/merge-config.ts'
import { PROJECT_ROOT } from '../project-root.ts'
import { checkFilingTemplate } from './filing-templates.ts'

export const FILING_CONFIG_FILE = path.join('base', 'filing.json')
export const PROVIDERS_DIR = 'providers'
/** The Handlebars templates of notices of dispute and of demands, beside agreements/. */
export const NOTICES_DIR = path.join(PROJECT_ROOT, 'notices')
export const DEMANDS_DIR = path.join(PROJECT_ROOT, 'demands')

/** The JSON Schemas of forms/base/filing.json (and each app's settings) and of forms/providers/*.json. */
export const FILING_SCHEMA_FILE = 'filing.schema.json'
export const PROFILE_SCHEMA_FILE = 'provider-profile.schema.json'
/** What forms/filing.schema.json lets "provider" be. */
const PROFILE_NAME = /^[a-z][a-z0-9-]{0,39}$/

/** A schema file in formsDir compiled, or its problem pushed and null. */
function compileSchema(formsDir: string, name: string, problems: string[]): ValidateFunction | null {
  const file = path.join(path.basename(formsDir), name)
  const schema = readJson(path.join(formsDir, name))
  if (!schema.ok) {
    problems.push(`${file}: ${schema.reason}`)
    return null
  }
  try {
    return new Ajv({ allErrors: true }).compile(schema.value as object)
  } catch (error) {
    problems.push(`${file}: ${(error as Error).message}`)
    return null
  }
}

/** An app's filing settings, with its provider's profile (see FilingSettings). */
export interface AppFiling {
  settings: FilingSettings
  profile: ProviderProfile
}

/**
 * Each app's filing settings: forms/base/filing.json with what the app's own file sets under "filing"
 * laid over it, its provider's profile (forms/providers/<name>.json) and its notice and demand
 * templates (notices/, demands/), each compiled and rendered once with a sample claim in strict mode,
 * so a template naming a value that does not exist fails here and not in a batch. Throws a
 * FormConfigError naming every problem's file, so a broken setting stops the server at start-up.
 */
export function loadFilings(
  formsDir: string,
  apps: Iterable<string>,
  { noticesDir = NOTICES_DIR, demandsDir = DEMANDS_DIR } = {},
): (app: string) => AppFiling {
  const folder = path.basename(formsDir)
  const problems: string[] = []
  const baseFile = path.join(folder, FILING_CONFIG_FILE)
  const checkFiling = compileSchema(formsDir, FILING_SCHEMA_FILE, problems)
  const checkProfile = compileSchema(formsDir, PROFILE_SCHEMA_FILE, problems)
  const base = readJson(path.join(formsDir, FILING_CONFIG_FILE))
  if (!base.ok) problems.push(`${baseFile}: ${base.reason}`)
  if (!checkFiling || !checkProfile || !base.ok) throw new FormConfigError(problems)
  problems.push(...schemaProblems(checkFiling, base.value, baseFile, ''))

  const profiles = loadProfiles(formsDir, checkProfile, problems)
  const templates = new Map<string, string[]>()
  const templateProblems = (dir: string, name: string, file: string, pointer: string) => {
    const key = path.join(dir, `${name}.hbs`)
    if (!templates.has(key)) templates.set(key, checkFilingTemplate(key))
    return templates.get(key)!.map((problem) => `${file}: ${pointer}: ${problem}`)
  }

  const byApp = new Map<string, AppFiling>()
  for (const app of apps) {
    const file = path.join(folder, `${app}.json`)
    const own = readJson(path.join(formsDir, `${app}.json`))
    const override = own.ok ? (own.value as { filing?: unknown }).filing : undefined
    const merged = override === undefined ? base.value : mergeConfig(base.value, override)
    const where = override === undefined ? baseFile : file
    const at = override === undefined ? '' : '/filing'
    const found = schemaProblems(checkFiling, merged, where, at)
    if (found.length > 0) {
      problems.push(...found)
      continue
    }
    const { $schema: _, ...settings } = merged as FilingSettings & { $schema?: string }
    const profile = profiles.get(settings.provider)
    if (!profile) {
      problems.push(
        `${where}: ${at}/provider: no provider profile "${settings.provider}" in ${path.join(folder, PROVIDERS_DIR)}/ (${[...profiles.keys()].join(', ')})`,
      )
      continue
    }
    // a template is the problem of the file that names it: the app's, or the base's (said once)
    for (const [key, dir] of [
      ['noticeTemplate', noticesDir],
      ['demandTemplate', demandsDir],
    ] as const) {
      const isOwn = Object.hasOwn((override ?? {}) as object, key)
      const found = templateProblems(
        dir,
        settings[key],
        isOwn ? file : baseFile,
        isOwn ? `/filing/${key}` : `/${key}`,
      )
      for (const problem of found) if (!problems.includes(problem)) problems.push(problem)
    }
    byApp.set(app, { settings, profile })
  }
  if (problems.length > 0) throw new FormConfigError(problems)
  return (app) => {
    const filing = byApp.get(app)
    if (!filing) throw new Error(`no filing settings for "${app}"`)
    return filing
  }
}

/** forms/providers/*.json by name (the file's name without .json), each checked against its schema. */
function loadProfiles(
  formsDir: string,
  checkProfile: ValidateFunction,
  problems: string[],
): Map<string, ProviderProfile> {
  const dir = path.join(formsDir, PROVIDERS_DIR)
  const profiles = new Map<string, ProviderProfile>()
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []
  for (const name of names.sort()) {
    const file = path.join(path.basename(formsDir), PROVIDERS_DIR, name)
    // a setting names a profile by its file's name, so a name no setting could spell is a mistake
    if (!PROFILE_NAME.test(name.slice(0, -'.json'.length))) {
      problems.push(
        `${file}: the name must be lowercase letters, digits and dashes (such as "acme-adr.json")`,
      )
      continue
    }
    const parsed = readJson(path.join(dir, name))
    if (!parsed.ok) {
      problems.push(`${file}: ${parsed.reason}`)
      continue
    }
    const found = schemaProblems(checkProfile, parsed.value, file, '')
    if (found.length > 0) {
      problems.push(...found)
      continue
    }
    const { $schema: _, ...profile } = parsed.value as ProviderProfile & { $schema?: string }
    // a required field no column carries could never be filled in the spreadsheet
    profile.required.forEach((field, index) => {
      if (!profile.columns.some((column) => column.field === field)) {
        problems.push(`${file}: /required/${index}: "${field}" has no column`)
      }
    })
    problems.push(...tierProblems(profile.fees.tiers).map((problem) => `${file}: ${problem}`))
    profiles.set(name.slice(0, -'.json'.length), profile)
  }
  return profiles
}

/**
 * A fee table's gaps and overlaps: its tiers must run from case 1 upwards without a break, and only the
 * last may be open-ended, so every case of a batch falls in exactly one tier.
 */
function tierProblems(tiers: FeeTier[]): string[] {
  const problems: string[] = []
  let next = 1
  tiers.forEach((tier, index) => {
    const at = `/fees/tiers/${index}`
    if (next === Infinity) {
      problems.push(`${at}: comes after an open-ended tier (only the last may have "toCase": null)`)
      return
    }
    if (tier.fromCase !== next) problems.push(`${at}/fromCase: is ${tier.fromCase}, should be ${next}`)
    if (tier.toCase !== null && tier.toCase < tier.fromCase) {
      problems.push(`${at}/toCase: ${tier.toCase} is before fromCase ${tier.fromCase}`)
    }
    next = tier.toCase === null ? Infinity : tier.toCase + 1
  })
  return problems
}

/** A value's schema problems, one line each: the file, the JSON pointer and what is wrong. */
function schemaProblems(check: ValidateFunction, value: unknown, file: string, at: string): string[] {
  if (check(value)) return []
  return (check.errors ?? []).map((error) => {
    const detail =
      error.keyword === 'additionalProperties'
        ? `unknown property "${String(error.params.additionalProperty)}"`
        : error.keyword === 'enum'
          ? `${JSON.stringify(valueAt(value, error.instancePath))} is not one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
          : (error.message ?? '')
    return `${file}: ${at}${error.instancePath || (at === '' ? '/' : '')} ${detail}`
  })
}

/** The value at a JSON pointer (as ajv's instancePath writes it) inside `value`. */
function valueAt(value: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((inner, key) => (inner as Record<string, unknown> | undefined)?.[key], value)
}
