import fs from 'node:fs'
import path from 'node:path'
import type { ValidateFunction } from 'ajv'
import { compileConfigSchema } from '../forms/config-schemas.ts'
import type { FeeTier, FilingSettings, ProviderProfile } from '../../src/filing-config.ts'
import { FormConfigError, readJson } from '../forms/load-form-configs.ts'
import { hasPointer, mergeConfig } from '../forms/merge-config.ts'
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
    return compileConfigSchema('settings', schema.value)
  } catch (error) {
    problems.push(`${file}: ${(error as Error).message}`)
    return null
  }
}

/** An app's filing settings, with its provider's profile (see FilingSettings). */
export interface AppFiling {
  settings: FilingSettings
  profile: ProviderProfile
  /** The notice's and the demand's Handlebars source, as read and checked at start-up. */
  templates: { notice: string; demand: string }
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
  const found: string[] = []
  const baseFile = path.join(folder, FILING_CONFIG_FILE)
  const checkFiling = compileSchema(formsDir, FILING_SCHEMA_FILE, found)
  const checkProfile = compileSchema(formsDir, PROFILE_SCHEMA_FILE, found)
  const base = readJson(path.join(formsDir, FILING_CONFIG_FILE))
  if (!base.ok) found.push(`${baseFile}: ${base.reason}`)
  if (!checkFiling || !checkProfile || !base.ok) throw new FormConfigError(found)
  const problems = new Set(found)
  const add = (lines: string[]) => lines.forEach((line) => problems.add(line))
  add(schemaProblems(checkFiling, base.value, (pointer) => [baseFile, pointer]))

  const { profiles, broken } = loadProfiles(formsDir, checkProfile, add)
  const templates = new Map<string, string[]>()
  const templateProblems = (dir: string, name: string, [file, at]: [string, string]) => {
    const key = path.join(dir, `${name}.hbs`)
    if (!templates.has(key)) templates.set(key, checkFilingTemplate(key))
    return templates.get(key)!.map((problem) => `${file}: ${at}: ${problem}`)
  }

  const byApp = new Map<string, AppFiling>()
  for (const app of apps) {
    const own = readJson(path.join(formsDir, `${app}.json`))
    const override = own.ok ? (own.value as { filing?: unknown }).filing : undefined
    const merged = override === undefined ? base.value : mergeConfig(base.value, override)
    // a problem is the file's that sets the value: the app's own "filing", else the base (said once)
    const origin = (pointer: string): [string, string] =>
      pointer !== '' && override !== undefined && hasPointer(override, pointer)
        ? [path.join(folder, `${app}.json`), `/filing${pointer}`]
        : [baseFile, pointer]
    const wrong = schemaProblems(checkFiling, merged, origin)
    if (wrong.length > 0) {
      add(wrong)
      continue
    }
    const { $schema: _, ...settings } = merged as FilingSettings & { $schema?: string }
    const profile = profiles.get(settings.provider)
    if (!profile) {
      // a profile that is there but broken has had its own problems listed
      if (!broken.has(settings.provider)) {
        const [file, at] = origin('/provider')
        add([
          `${file}: ${at}: no provider profile "${settings.provider}" in ${path.join(folder, PROVIDERS_DIR)}/ (${[...profiles.keys(), ...broken].sort().join(', ')})`,
        ])
      }
      continue
    }
    const notice = templateProblems(noticesDir, settings.noticeTemplate, origin('/noticeTemplate'))
    const demand = templateProblems(demandsDir, settings.demandTemplate, origin('/demandTemplate'))
    add(notice)
    add(demand)
    if (notice.length > 0 || demand.length > 0) continue
    byApp.set(app, {
      settings,
      profile,
      templates: {
        notice: fs.readFileSync(path.join(noticesDir, `${settings.noticeTemplate}.hbs`), 'utf8'),
        demand: fs.readFileSync(path.join(demandsDir, `${settings.demandTemplate}.hbs`), 'utf8'),
      },
    })
  }
  if (problems.size > 0) throw new FormConfigError([...problems])
  return (app) => {
    const filing = byApp.get(app)
    if (!filing) throw new Error(`no filing settings for "${app}"`)
    return filing
  }
}

/**
 * forms/providers/*.json by name (the file's name without .json), each checked against its schema; the
 * names of those that are there but broken apart, so a setting naming one is not called unknown.
 */
function loadProfiles(
  formsDir: string,
  checkProfile: ValidateFunction,
  add: (problems: string[]) => void,
): { profiles: Map<string, ProviderProfile>; broken: Set<string> } {
  const dir = path.join(formsDir, PROVIDERS_DIR)
  const profiles = new Map<string, ProviderProfile>()
  const broken = new Set<string>()
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []
  for (const name of names.sort()) {
    const file = path.join(path.basename(formsDir), PROVIDERS_DIR, name)
    const profileName = name.slice(0, -'.json'.length)
    // a setting names a profile by its file's name, so a name no setting could spell is a mistake
    if (!PROFILE_NAME.test(profileName)) {
      add([`${file}: the name must be lowercase letters, digits and dashes (such as "acme-adr.json")`])
      continue
    }
    const parsed = readJson(path.join(dir, name))
    const problems = parsed.ok
      ? schemaProblems(checkProfile, parsed.value, (pointer) => [file, pointer])
      : [`${file}: ${parsed.reason}`]
    if (problems.length === 0) {
      const { $schema: _, ...profile } = (parsed as { value: ProviderProfile & { $schema?: string } }).value
      // a required field no column carries could never be filled in the spreadsheet
      profile.required.forEach((field, index) => {
        if (!profile.columns.some((column) => column.field === field)) {
          problems.push(`${file}: /required/${index}: "${field}" has no column`)
        }
      })
      problems.push(...tierProblems(profile.fees.tiers).map((problem) => `${file}: ${problem}`))
      if (problems.length === 0) profiles.set(profileName, profile)
    }
    if (problems.length > 0) broken.add(profileName)
    add(problems)
  }
  return { profiles, broken }
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

/**
 * A value's schema problems, one line each: the file and JSON pointer `locate` gives for where ajv
 * found it, and what is wrong.
 */
function schemaProblems(
  check: ValidateFunction,
  value: unknown,
  locate: (pointer: string) => [file: string, at: string],
): string[] {
  if (check(value)) return []
  return (check.errors ?? []).map((error) => {
    const detail =
      error.keyword === 'additionalProperties'
        ? `unknown property "${String(error.params.additionalProperty)}"`
        : error.keyword === 'enum'
          ? `${JSON.stringify(valueAt(value, error.instancePath))} is not one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
          : (error.message ?? '')
    // an unknown property is the problem of the file that has it, so it is located by its own pointer
    const pointer =
      error.keyword === 'additionalProperties'
        ? `${error.instancePath}/${String(error.params.additionalProperty).replaceAll('~', '~0').replaceAll('/', '~1')}`
        : error.instancePath
    const [file, at] = locate(pointer)
    return `${file}: ${at || '/'} ${detail}`
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
