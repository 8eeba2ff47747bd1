import fs from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { FRAUD_TESTS, MAX_SCORE, type FraudConfig, type FraudConfigs } from '../../src/fraud-config.ts'
import { FormConfigError, readJson } from '../forms/load-form-configs.ts'
import { mergeConfig } from '../forms/merge-config.ts'

export const FRAUD_CONFIG_FILE = path.join('base', 'fraud.json')

const SCORE = { type: 'integer', minimum: 0, maximum: MAX_SCORE }
const FRAUD_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['thresholds', 'tests'],
  properties: {
    thresholds: {
      type: 'object',
      additionalProperties: false,
      required: ['review', 'hold'],
      properties: { review: SCORE, hold: SCORE },
    },
    tests: {
      type: 'object',
      additionalProperties: false,
      required: [...FRAUD_TESTS],
      properties: Object.fromEntries(
        FRAUD_TESTS.map((code) => [
          code,
          {
            type: 'object',
            additionalProperties: false,
            required: ['weight', 'label', 'text'],
            properties: {
              weight: SCORE,
              label: { type: 'string', minLength: 1, maxLength: 80 },
              text: { type: 'string', minLength: 1, maxLength: 300 },
              atLeast: { type: 'integer', minimum: 1, maximum: 10_000 },
              similarity: { type: 'number', exclusiveMinimum: 0.5, maximum: 1 },
              seconds: { type: 'integer', minimum: 1, maximum: 3600 },
            },
          },
        ]),
      ),
    },
  },
}

const validate = new Ajv({ allErrors: true }).compile<FraudConfig>(FRAUD_SCHEMA)

/** Every problem of a fraud config, each naming the file and the JSON pointer (under `at`). */
function checkFraudConfig(config: unknown, file: string, at: string): string[] {
  if (!validate(config)) {
    return (validate.errors ?? []).map(
      (error) => `${file}: ${at}${error.instancePath || (at === '' ? '/' : '')} ${error.message ?? ''}`,
    )
  }
  if (config.thresholds.hold >= config.thresholds.review) {
    return [
      `${file}: ${at}/thresholds: hold (${config.thresholds.hold}) must be below review (${config.thresholds.review})`,
    ]
  }
  return []
}

/**
 * Each app's fraud config: forms/base/fraud.json, with what an app's own file (forms/<slug>.json) sets
 * under "fraud" laid over it, each checked as the base is. A broken file stops the server at start-up
 * with every problem named.
 */
export function loadFraudConfigs(formsDir: string, apps: Iterable<string>): FraudConfigs {
  const baseFile = path.join(path.basename(formsDir), FRAUD_CONFIG_FILE)
  let base: unknown
  try {
    base = JSON.parse(fs.readFileSync(path.join(formsDir, FRAUD_CONFIG_FILE), 'utf8'))
  } catch (error) {
    throw new FormConfigError([`${baseFile}: ${(error as Error).message}`])
  }
  const problems = checkFraudConfig(base, baseFile, '')
  if (problems.length > 0) throw new FormConfigError(problems)
  const byApp = new Map<string, FraudConfig>()
  for (const app of apps) {
    const own = readJson(path.join(formsDir, `${app}.json`))
    const override = own.ok ? (own.value as { fraud?: unknown }).fraud : undefined
    if (override === undefined) continue
    const merged = mergeConfig(base, override)
    problems.push(...checkFraudConfig(merged, path.join(path.basename(formsDir), `${app}.json`), '/fraud'))
    byApp.set(app, merged as FraudConfig)
  }
  if (problems.length > 0) throw new FormConfigError(problems)
  return (app) => byApp.get(app) ?? (base as FraudConfig)
}
