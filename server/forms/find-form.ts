import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'

/** The app's form config by its slug; an unknown slug answers 404 FORM_NOT_FOUND. */
export function findFormOrThrow(forms: Map<string, FormConfig>, slug: string | undefined): FormConfig {
  const config = slug === undefined ? undefined : forms.get(slug)
  if (!config) throw new AppError('FORM_NOT_FOUND', { status: 404, message: `form "${slug}" not found` })
  return config
}
