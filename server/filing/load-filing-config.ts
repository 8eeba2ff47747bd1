import fs from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import Handlebars from 'handlebars'
import { FILING_FIELDS, type FilingSettings, type ProviderProfile } from '../../src/filing-config.ts'
import { FormConfigError, readJson } from '../forms/load-form-configs.ts'
import { mergeConfig } from '../forms/merge-config.ts'
import { PROJECT_ROOT } from '../project-root.ts'
import { filingTemplateContext } from './filing-templates.ts'

export const FILING_CONFIG_FILE = path.join('base', 'filing.json')
export const PROVIDERS_DIR = 'providers'
/** The Handlebars templates of notices of dispute and of demands, beside agreements/. */
export const NOTICES_DIR = path.join(PROJECT_ROOT, 'notices')
export const DEMANDS_DIR = path.join(PROJECT_ROOT, 'demands')

const TEXT = { type: 'string', minLength: 1, maxLength: 200 }
const NAME = { type: 'string', pattern: '^[a-z][a-z0-9-]{0,39}$' }
const FILING_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: [
    'noticeTemplate',
    'demandTemplate',
    'waitingPeriodDays',
    'provider',
    'representatives',
    'clause',
  ],
  properties: {
    respondent: {
      type: 'object',
      additionalProperties: false,
      required: ['legalName', 'noticeAddress'],
      properties: {
        legalName: TEXT,
        noticeAddress: { type: 'array', minItems: 1, maxItems: 6, items: TEXT },
      },
    },
    noticeTemplate: NAME,
    demandTemplate: NAME,
    waitingPeriodDays: { type: 'integer', minimum: 0, maximum: 365 },
    provider: NAME,
    representatives: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'barNumber', 'email', 'phone', 'firm'],
        properties: { name: TEXT, barNumber: TEXT, email: TEXT, phone: TEXT, firm: TEXT },
      },
    },
    clause: { type: 'string', minLength: 1, maxLength: 20_000 },
  },
}
const FIELD = { enum: [...FILING_FIELDS] }
const PROFILE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'statement', 'columns', 'required', 'fees'],
  properties: {
    $schema: { type: 'string' },
    name: TEXT,
    statement: { enum: ['affirmation', 'declaration'] },
    columns: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['header', 'field'],
        properties: { header: TEXT, field: FIELD },
      },
    },
    required: { type: 'array', items: FIELD, uniqueItems: true },
    fees: {
      type: 'object',
      additionalProperties: false,
      required: ['note', 'perBatch', 'tiers'],
      properties: {
        note: { type: 'string', minLength: 1, maxLength: 500 },
        perBatch: { type: 'number', minimum: 0 },
        tiers: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['fromCase', 'toCase', 'claimantPerCase', 'respondentPerCase'],
            properties: {
              fromCase: { type: 'integer', minimum: 1 },
              toCase: { type: ['integer', 'null'], minimum: 1 },
              claimantPerCase: { type: 'number', minimum: 0 },
              respondentPerCase: { type: 'number', minimum: 0 },
            },
          },
        },
      },
    },
  },
}

const ajv = new Ajv({ allErrors: true })
const checkFiling = ajv.compile<FilingSettings>(FILING_SCHEMA)
const checkProfile = ajv.compile<ProviderProfile>(PROFILE_SCHEMA)

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
  const base = readJson(path.join(formsDir, FILING_CONFIG_FILE))
  if (!base.ok) throw new FormConfigError([`${baseFile}: ${base.reason}`])
  problems.push(...schemaProblems(checkFiling, base.value, baseFile, ''))

  const profiles = loadProfiles(formsDir, problems)
  const templates = new Map<string, string[]>()
  const templateProblems = (dir: string, name: string, file: string, pointer: string) => {
    const key = path.join(dir, `${name}.hbs`)
    if (!templates.has(key)) templates.set(key, checkTemplate(key))
    return templates.get(key)!.map((problem) => `${file}: ${pointer}: ${problem}`)
  }

  const byApp = new Map<string, AppFiling>()
  for (const app of apps) {
    const file = path.join(folder, `${app}.json`)
    const own = readJson(path.join(formsDir, `${app}.json`))
    const override = own.ok ? (own.value as { filing?: unknown }).filing : undefined
    const settings = (
      override === undefined ? base.value : mergeConfig(base.value, override)
    ) as FilingSettings
    const where = override === undefined ? baseFile : file
    const at = override === undefined ? '' : '/filing'
    const found = schemaProblems(checkFiling, settings, where, at)
    if (found.length > 0) {
      problems.push(...found)
      continue
    }
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
function loadProfiles(formsDir: string, problems: string[]): Map<string, ProviderProfile> {
  const dir = path.join(formsDir, PROVIDERS_DIR)
  const profiles = new Map<string, ProviderProfile>()
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.json')) : []
  for (const name of names.sort()) {
    const file = path.join(path.basename(formsDir), PROVIDERS_DIR, name)
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
    const profile = parsed.value as ProviderProfile
    // a required field no column carries could never be filled in the spreadsheet
    for (const field of profile.required) {
      if (!profile.columns.some((column) => column.field === field)) {
        problems.push(`${file}: /required: "${field}" has no column`)
      }
    }
    profiles.set(name.slice(0, -'.json'.length), profile)
  }
  return profiles
}

/** A template's problems: missing, not compiling (with Handlebars's line), or naming an unknown value. */
function checkTemplate(file: string): string[] {
  const shown = path.relative(PROJECT_ROOT, file)
  let source: string
  try {
    source = fs.readFileSync(file, 'utf8')
  } catch {
    return [`template ${shown} not found`]
  }
  try {
    Handlebars.create().compile(source, { strict: true, preventIndent: true })(filingTemplateContext())
    return []
  } catch (error) {
    return [`${shown}: ${(error as Error).message.split('\n')[0]}`]
  }
}

function schemaProblems(
  check: ReturnType<typeof ajv.compile>,
  value: unknown,
  file: string,
  at: string,
): string[] {
  if (check(value)) return []
  return (check.errors ?? []).map((error) => {
    const detail =
      error.keyword === 'additionalProperties'
        ? `unknown property "${String(error.params.additionalProperty)}"`
        : error.keyword === 'enum'
          ? `${error.message}: ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`
          : (error.message ?? '')
    return `${file}: ${at}${error.instancePath || (at === '' ? '/' : '')} ${detail}`
  })
}
