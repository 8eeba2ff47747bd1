import { loadFormConfig } from '../forms/use-form-config.ts'
import { formValidatorUrl, importValidatorFunctions } from '../forms/validator-module.ts'

/** Where the page was loaded: the server answers an unknown app's address 404, so an app there exists. */
const LOADED_PATHNAME = window.location.pathname

/**
 * Starts at once everything /{app} waits for (its config, its precompiled validator and the form's
 * code), instead of each after the one before. An app reached by moving inside the site was never
 * vouched for by the server: its validator is asked for only once its config is found, so an unknown
 * app costs one API request. Failures are left to the components that use them.
 */
export function preloadClaimPage(slug: string): void {
  const config = loadFormConfig(slug)
  const preloadValidator = () => importValidatorFunctions(formValidatorUrl(slug)).catch(() => undefined)
  if (window.location.pathname === LOADED_PATHNAME) {
    config.catch(() => undefined)
    void preloadValidator()
  } else {
    config.then(preloadValidator, () => undefined)
  }
  import('../forms/claim-form.tsx').catch(() => undefined)
}
