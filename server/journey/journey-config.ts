import fs from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import type { JourneyConfig } from '../../src/journey-config.ts'
import { FormConfigError } from '../forms/load-form-configs.ts'

export const JOURNEY_CONFIG_FILE = path.join('base', 'journey.json')

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['reminderDays', 'linkDays', 'sendHours'],
  properties: {
    reminderDays: {
      type: 'array',
      maxItems: 20,
      items: { type: 'number', exclusiveMinimum: 0, maximum: 365 },
    },
    linkDays: { type: 'integer', minimum: 1, maximum: 365 },
    sendHours: {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to'],
      properties: {
        from: { type: 'integer', minimum: 0, maximum: 23 },
        to: { type: 'integer', minimum: 1, maximum: 24 },
      },
    },
  },
}

const validate = new Ajv({ allErrors: true }).compile<JourneyConfig>(SCHEMA)

/**
 * Reads forms/base/journey.json and checks it; a broken file stops the server at start-up with every
 * problem named by its JSON pointer, as a broken form does.
 */
export function loadJourneyConfig(formsDir: string): JourneyConfig {
  const file = path.join(path.basename(formsDir), JOURNEY_CONFIG_FILE)
  let config: unknown
  try {
    config = JSON.parse(fs.readFileSync(path.join(formsDir, JOURNEY_CONFIG_FILE), 'utf8'))
  } catch (error) {
    throw new FormConfigError([`${file}: ${(error as Error).message}`])
  }
  if (!validate(config)) {
    throw new FormConfigError(
      (validate.errors ?? []).map((error) => `${file}: ${error.instancePath || '/'} ${error.message ?? ''}`),
    )
  }
  const problems: string[] = []
  config.reminderDays.forEach((day, i) => {
    if (i > 0 && day <= config.reminderDays[i - 1]!)
      problems.push(`${file}: /reminderDays/${i} must come after the day before it`)
  })
  if (config.sendHours.from >= config.sendHours.to)
    problems.push(`${file}: /sendHours: "from" must be before "to"`)
  if (problems.length > 0) throw new FormConfigError(problems)
  return config
}
