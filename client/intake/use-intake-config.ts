import { useEffect, useState } from 'react'
import type { IntakeConfig } from '../../src/intake-config.ts'
import { useLocale } from '../i18n/use-text.ts'
import { fetchIntakeConfig } from './api.ts'

export type IntakeConfigState =
  { status: 'loading' } | { status: 'ready'; config: IntakeConfig } | { status: 'failed'; message: string }

/** Loads the intake config once per mount; `isWanted: false` skips the request. */
export function useIntakeConfig({ isWanted = true }: { isWanted?: boolean } = {}): IntakeConfigState {
  const { locale } = useLocale()
  const [state, setState] = useState<IntakeConfigState>({ status: 'loading' })
  useEffect(() => {
    if (!isWanted) return
    let isCurrent = true
    fetchIntakeConfig().then(
      (config) => isCurrent && setState({ status: 'ready', config }),
      (error: Error) => isCurrent && setState({ status: 'failed', message: error.message }),
    )
    return () => {
      isCurrent = false
    }
  }, [isWanted, locale])
  return state
}
