import type { RJSFSchema } from '@rjsf/utils'
import type { IntakeConfig } from '../../src/intake-config.ts'

/**
 * The schema the claimant fills in: the config's schema with the closed apps taken out of the
 * app choices, so they can be neither ticked nor sent.
 */
export function openIntakeSchema(config: Pick<IntakeConfig, 'schema' | 'closedApps'>): RJSFSchema {
  const { schema, closedApps } = config
  const apps = schema.properties?.cashAdvanceApps
  if (typeof apps !== 'object' || typeof apps.items !== 'object' || Array.isArray(apps.items)) return schema
  const choices = apps.items.oneOf ?? []
  const open = choices.filter(
    (choice) =>
      !(
        typeof choice === 'object' &&
        typeof choice.const === 'string' &&
        Object.hasOwn(closedApps, choice.const)
      ),
  )
  if (open.length === choices.length) return schema
  return {
    ...schema,
    properties: {
      ...schema.properties,
      cashAdvanceApps: { ...apps, items: { ...apps.items, oneOf: open } },
    },
  }
}
