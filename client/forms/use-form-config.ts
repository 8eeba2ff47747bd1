import { useEffect, useState } from 'react'
import type { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { fetchFormConfig } from './api.ts'

export type FormConfigState =
  | { status: 'loading' }
  | { status: 'ready'; config: FormConfig }
  | { status: 'missing' }
  | { status: 'failed'; message: string }

export function useFormConfig(slug: string): FormConfigState {
  const [state, setState] = useState<FormConfigState>({ status: 'loading' })
  useEffect(() => {
    let isCurrent = true
    fetchFormConfig(slug).then(
      (config) => isCurrent && setState({ status: 'ready', config }),
      (error: AppError) =>
        isCurrent &&
        setState(error.status === 404 ? { status: 'missing' } : { status: 'failed', message: error.message }),
    )
    return () => {
      isCurrent = false
    }
  }, [slug])
  return state
}
