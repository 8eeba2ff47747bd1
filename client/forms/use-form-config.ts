import { useEffect, useState } from 'react'
import type { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { currentLocale } from '../i18n/locale.ts'
import { useLocale } from '../i18n/use-text.ts'
import { fetchFormConfig } from './api.ts'

export type FormConfigState =
  | { status: 'loading' }
  | { status: 'ready'; config: FormConfig }
  | { status: 'missing' }
  | { status: 'failed'; message: string }

const loading = new Map<string, Promise<FormConfig>>()

/**
 * The app's config, fetched once per page load: /{app} starts it from the entry chunk while the form's
 * code downloads, and /{app}-success reuses it. A failed fetch is forgotten, so a later mount retries.
 */
export function loadFormConfig(slug: string): Promise<FormConfig> {
  const key = `${currentLocale()}:${slug}`
  let config = loading.get(key)
  if (!config) {
    config = fetchFormConfig(slug)
    // a failed fetch is tried again on the next mount; an unknown app is known not to exist
    config.catch((error: AppError) => error.status !== 404 && loading.delete(key))
    loading.set(key, config)
  }
  return config
}

export function useFormConfig(slug: string): FormConfigState {
  const { locale } = useLocale()
  const [state, setState] = useState<FormConfigState>({ status: 'loading' })
  useEffect(() => {
    let isCurrent = true
    loadFormConfig(slug).then(
      (config) => isCurrent && setState({ status: 'ready', config }),
      (error: AppError) =>
        isCurrent &&
        setState(error.status === 404 ? { status: 'missing' } : { status: 'failed', message: error.message }),
    )
    return () => {
      isCurrent = false
    }
  }, [slug, locale])
  return state
}
