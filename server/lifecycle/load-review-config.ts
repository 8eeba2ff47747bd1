import fs from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import { FormConfigError, readJson } from '../forms/load-form-configs.ts'
import { mergeConfig } from '../forms/merge-config.ts'
import { LOCALES } from '../../src/translate.ts'
import { CLAIMANT_STATES, CURE_FIXES, type ReviewConfig, type Reviews } from '../../src/review-config.ts'

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
    statuses: byName({
      decision: { type: 'boolean' },
      final: { type: 'boolean' },
      needsReason: { type: 'boolean' },
      claimant: { enum: [...CLAIMANT_STATES] },
    }),
    moves: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to'],
        properties: {
          from: NAME,
          to: NAME,
          by: { enum: ['staff', 'claimant', 'system'] },
          decide: { type: 'boolean' },
        },
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

/**
 * Statuses the code names: notice and filing batches take "approved" claims and move them to "filed",
 * and the funnel counts claims in either as approved. A config may relabel them, not drop them.
 */
const NAMED_STATUSES = ['approved', 'filed'] as const

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
  const problems = checkReviewConfig(config, file, '')
  if (problems.length > 0) throw new FormConfigError(problems)
  return config as ReviewConfig
}

/**
 * Each app's review (see Reviews): forms/base/review.json, with what an app's own file
 * (forms/<slug>.json) sets under "review" laid over it, each checked as the base is. An app may not
 * change the initial status: a claim starts in it before any config is consulted (the column's default).
 */
export function loadReviews(
  formsDir: string,
  apps: Iterable<string>,
  base: ReviewConfig = loadReviewConfig(formsDir),
): Reviews {
  const byApp = new Map<string, ReviewConfig>()
  const problems: string[] = []
  for (const app of apps) {
    const file = path.join(path.basename(formsDir), `${app}.json`)
    const own = readJson(path.join(formsDir, `${app}.json`))
    const override = own.ok ? (own.value as { review?: unknown }).review : undefined
    if (override === undefined) continue
    const merged = mergeConfig(base, override) as ReviewConfig
    const found = checkReviewConfig(merged, file, '/review')
    if (found.length === 0 && merged.initial !== base.initial) {
      found.push(`${file}: /review/initial: every app's claims start "${base.initial}", as review.json says`)
    }
    problems.push(...found)
    byApp.set(app, merged)
  }
  if (problems.length > 0) throw new FormConfigError(problems)
  return (app) => byApp.get(app) ?? base
}

/** Every problem of a review config, each naming the file and the JSON pointer (under `at`). */
function checkReviewConfig(config: unknown, file: string, at: string): string[] {
  if (!validate(config)) {
    return (validate.errors ?? []).map(
      (error) => `${file}: ${at}${error.instancePath || (at === '' ? '/' : '')} ${error.message ?? ''}`,
    )
  }
  const problems: string[] = []
  const known = (status: string) => Object.hasOwn(config.statuses, status)
  if (!known(config.initial)) problems.push(`${file}: ${at}/initial: unknown status "${config.initial}"`)
  for (const status of NAMED_STATUSES) {
    if (!known(status)) {
      problems.push(
        `${file}: ${at}/statuses: needs "${status}": the filing batches and the funnel take claims in it`,
      )
    }
  }
  if (config.duplicate) {
    if (!known(config.duplicate.status))
      problems.push(`${file}: ${at}/duplicate/status: unknown status "${config.duplicate.status}"`)
    if (!Object.hasOwn(config.reasons, config.duplicate.reason))
      problems.push(`${file}: ${at}/duplicate/reason: unknown reason "${config.duplicate.reason}"`)
  }
  config.moves.forEach((move, i) => {
    for (const end of ['from', 'to'] as const) {
      if (!known(move[end])) problems.push(`${file}: ${at}/moves/${i}/${end}: unknown status "${move[end]}"`)
    }
    if (move.decide === false && config.statuses[move.to]?.final) {
      problems.push(
        `${file}: ${at}/moves/${i}: ${move.from} → ${move.to} ends the claim, so it needs the decide right: drop "decide": false`,
      )
    }
  })
  for (const [name, reason] of Object.entries(config.reasons)) {
    if (!reason.freeText && !reason.text?.en) {
      problems.push(
        `${file}: ${at}/reasons/${name}: needs an English text for the claimant, or "freeText": true`,
      )
    }
  }
  return problems
}
