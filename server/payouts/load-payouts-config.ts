import fs from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { MAX_CENTS } from '../../src/money.ts'
import type { PayoutsConfig, PayoutsConfigs } from '../../src/payouts-config.ts'
import { FormConfigError, readJson } from '../forms/load-form-configs.ts'
import { mergeConfig } from '../forms/merge-config.ts'

export const PAYOUTS_CONFIG_FILE = path.join('base', 'payouts.json')

const PAYOUTS_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['form1099ThresholdCents', 'uncashedCheckDays', 'dormancyYears'],
  properties: {
    // whole cents: a threshold written in dollars (2000) or with decimals is refused, not read as $20.00
    form1099ThresholdCents: { type: 'integer', minimum: 1, maximum: MAX_CENTS },
    uncashedCheckDays: { type: 'integer', minimum: 1, maximum: 3650 },
    dormancyYears: { type: 'integer', minimum: 1, maximum: 20 },
  },
}

const validate = new Ajv({ allErrors: true }).compile<PayoutsConfig>(PAYOUTS_SCHEMA)

/** Every problem of a payouts config, each naming the file and the JSON pointer (under `at`). */
function checkPayoutsConfig(config: unknown, file: string, at: string): string[] {
  if (validate(config)) return []
  return (validate.errors ?? []).map((error) => {
    const where = `${at}${error.instancePath || (at === '' ? '/' : '')}`
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ("${String((error.params as { additionalProperty: string }).additionalProperty)}")`
        : ''
    return `${file}: ${where} ${error.message ?? ''}${extra}`
  })
}

/** Settings that span every app, which an app's own file may not change. */
const FIRM_ONLY = ['form1099ThresholdCents'] as const

/**
 * Each app's payout settings: forms/base/payouts.json, with what an app's own file (forms/<slug>.json)
 * sets under "payouts" laid over it, each checked as the base is. The 1099 threshold stays the base's:
 * it applies to a payee's payments from every app together. A broken file stops the server at start-up
 * with every problem named.
 */
export function loadPayoutsConfigs(formsDir: string, apps: Iterable<string>): PayoutsConfigs {
  const baseFile = path.join(path.basename(formsDir), PAYOUTS_CONFIG_FILE)
  let base: unknown
  try {
    base = JSON.parse(fs.readFileSync(path.join(formsDir, PAYOUTS_CONFIG_FILE), 'utf8'))
  } catch (error) {
    throw new FormConfigError([`${baseFile}: ${(error as Error).message}`])
  }
  const problems = checkPayoutsConfig(base, baseFile, '')
  if (problems.length > 0) throw new FormConfigError(problems)
  const byApp = new Map<string, PayoutsConfig>()
  for (const app of apps) {
    const own = readJson(path.join(formsDir, `${app}.json`))
    const override = own.ok ? (own.value as { payouts?: unknown }).payouts : undefined
    if (override === undefined) continue
    const file = path.join(path.basename(formsDir), `${app}.json`)
    const merged = mergeConfig(base, override)
    problems.push(...checkPayoutsConfig(merged, file, '/payouts'))
    for (const key of FIRM_ONLY) {
      if (typeof override === 'object' && override !== null && Object.hasOwn(override, key)) {
        problems.push(
          `${file}: /payouts/${key} is the firm's, not an app's: a payee's payments from every app count together, so set it in ${baseFile}`,
        )
      }
    }
    byApp.set(app, merged as PayoutsConfig)
  }
  if (problems.length > 0) throw new FormConfigError(problems)
  const firm = base as PayoutsConfig
  return Object.assign((app: string) => byApp.get(app) ?? firm, { firm })
}
