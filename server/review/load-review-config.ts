import fs from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { FormConfigError } from '../forms/load-form-configs.ts'
import { LOCALES } from '../../src/translate.ts'
import { CURE_FIXES, type ReviewConfig } from '../../src/review-config.ts'

export const REVIEW_CONFIG_FILE = path.join('base', 'review.json')

const NAME = { type: 'string', pattern: '^[a-z][a-z0-9_]{0,39}$' }
const LABEL = { type: 'string', minLength: 1, maxLength: 80 }
/** An object of named entries (statuses, reasons), each with a label and the given other properties. */
const byName = (properties: Record<string, unknown>) => ({
  type: 'object',
  minProperties: 1,
  propertyNames: NAME,
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    required: ['label'],
    properties: { label: LABEL, ...properties },
  },
})
const REVIEW_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['curePeriodDays', 'initial', 'statuses', 'moves', 'reasons'],
  properties: {
    curePeriodDays: { type: 'integer', minimum: 1, maximum: 365 },
    initial: NAME,
    duplicate: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'reason'],
      properties: { status: NAME, reason: NAME },
    },
    statuses: byName({ decision: { type: 'boolean' }, needsReason: { type: 'boolean' } }),
    moves: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to'],
        properties: { from: NAME, to: NAME, by: { enum: ['staff', 'claimant', 'system'] } },
      },
    },
    reasons: byName({
      freeText: { type: 'boolean' },
      fix: {
        type: 'array',
        items: { enum: [...CURE_FIXES] },
        uniqueItems: true,
      },
      text: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(LOCALES.map((locale) => [locale, { type: 'string', minLength: 1 }])),
      },
    }),
  },
}

const validate = new Ajv({ allErrors: true }).compile<ReviewConfig>(REVIEW_SCHEMA)

/**
 * Reads forms/base/review.json and checks it: its shape, that every move names known statuses, and
 * that every reason has a claimant's text in English or is written by the reviewer. Throws a
 * FormConfigError listing every problem, so a broken file stops the server at start-up.
 */
export function loadReviewConfig(formsDir: string): ReviewConfig {
  const file = path.join(path.basename(formsDir), REVIEW_CONFIG_FILE)
  let config: unknown
  try {
    config = JSON.parse(fs.readFileSync(path.join(formsDir, REVIEW_CONFIG_FILE), 'utf8'))
  } catch (error) {
    throw new FormConfigError([`${file}: ${(error as Error).message}`])
  }
  if (!validate(config)) {
    throw new FormConfigError(
      (validate.errors ?? []).map((error) => `${file}: ${error.instancePath || '/'} ${error.message ?? ''}`),
    )
  }
  const problems: string[] = []
  const known = (status: string) => Object.hasOwn(config.statuses, status)
  if (!known(config.initial)) problems.push(`${file}: /initial: unknown status "${config.initial}"`)
  if (config.duplicate) {
    if (!known(config.duplicate.status))
      problems.push(`${file}: /duplicate/status: unknown status "${config.duplicate.status}"`)
    if (!Object.hasOwn(config.reasons, config.duplicate.reason))
      problems.push(`${file}: /duplicate/reason: unknown reason "${config.duplicate.reason}"`)
  }
  config.moves.forEach((move, i) => {
    for (const end of ['from', 'to'] as const) {
      if (!known(move[end])) problems.push(`${file}: /moves/${i}/${end}: unknown status "${move[end]}"`)
    }
  })
  for (const [name, reason] of Object.entries(config.reasons)) {
    if (!reason.freeText && !reason.text?.en) {
      problems.push(`${file}: /reasons/${name}: needs an English text for the claimant, or "freeText": true`)
    }
  }
  if (problems.length > 0) throw new FormConfigError(problems)
  return config
}
