import { loadFormConfig } from '../forms/use-form-config.ts'
import { formValidatorUrl, importValidatorFunctions } from '../forms/validator-module.ts'

/**
 * Starts at once everything /{app} waits for (its config, its precompiled validator and the form's
 * code), instead of each after the one before. Failures are left to the components that use them.
 */
export function preloadClaimPage(slug: string): void {
  loadFormConfig(slug).catch(() => undefined)
  importValidatorFunctions(formValidatorUrl(slug)).catch(() => undefined)
  import('../forms/claim-form.tsx').catch(() => undefined)
}
