import type { ValidatorFunctions } from '@rjsf/validator-ajv8'
import { withLang } from '../i18n/locale.ts'

/** The validators carry the language's messages in their schema, so each language has its own. */
export function intakeValidatorUrl(): string {
  return withLang('/api/intake/validator.js')
}

export function formValidatorUrl(slug: string): string {
  return withLang(`/api/forms/${encodeURIComponent(slug)}/validator.js`)
}

const loading = new Map<string, Promise<ValidatorFunctions>>()

/**
 * Imports a form's validators: ajv code the server precompiled from the form's schema, so the browser
 * compiles nothing and the CSP needs no 'unsafe-eval'. One download per URL and page; a route calls it
 * early so the module arrives while the rest of the page loads.
 */
export function importValidatorFunctions(url: string): Promise<ValidatorFunctions> {
  let module = loading.get(url)
  if (!module) {
    module = import(/* @vite-ignore */ url).then(
      (loaded: { validateFns: ValidatorFunctions }) => loaded.validateFns,
    )
    // a failed download is not kept: the next form that mounts tries again
    module.catch(() => loading.delete(url))
    loading.set(url, module)
  }
  return module
}
