import path from 'node:path'
import type { IntakeConfig } from '../../src/intake-config.ts'
import { compileConfigSchema } from './config-schemas.ts'
import { describeErrors, FormConfigError, INTAKE_CONFIG_FILE, readJson } from './load-form-configs.ts'

const INTAKE_META_SCHEMA_FILE = 'intake-config.schema.json'

/** Reads forms/intake.json and checks it against forms/intake-config.schema.json; all problems at once. */
export function loadIntakeConfig(
  formsDir: string,
  { agreementTemplates }: { agreementTemplates?: { has(name: string): boolean } } = {},
): IntakeConfig {
  const file = path.join(path.basename(formsDir), INTAKE_CONFIG_FILE)
  const meta = readJson(path.join(formsDir, INTAKE_META_SCHEMA_FILE))
  if (!meta.ok) throw new FormConfigError([`${path.join(formsDir, INTAKE_META_SCHEMA_FILE)}: ${meta.reason}`])
  const parsed = readJson(path.join(formsDir, INTAKE_CONFIG_FILE))
  if (!parsed.ok) throw new FormConfigError([`${file}: ${parsed.reason}`])
  const check = compileConfigSchema('meta', meta.value)
  if (!check(parsed.value)) throw new FormConfigError(describeErrors(file, check.errors ?? []))
  const config = parsed.value as IntakeConfig
  if (agreementTemplates && !agreementTemplates.has(config.agreement.template)) {
    throw new FormConfigError([
      `${file}: /agreement/template: no agreements/${config.agreement.template}.hbs`,
    ])
  }
  try {
    compileConfigSchema('form', config.schema)
  } catch (error) {
    throw new FormConfigError([`${file}: /schema: ${(error as Error).message}`])
  }
  return config
}
