import { createContext, useContext } from 'react'
import { DEFAULT_LOCALE, translator, type Locale, type Translator } from '../../src/translate.ts'

export interface LocaleState {
  locale: Locale
  /** The claimant's choice from the English | Español switch; remembered for their next visit. */
  setLocale(locale: Locale): void
  t: Translator
}

export const LocaleContext = createContext<LocaleState>({
  locale: DEFAULT_LOCALE,
  setLocale: () => undefined,
  t: translator(undefined),
})

/** The page's language and its translator. */
export function useLocale(): LocaleState {
  return useContext(LocaleContext)
}

/**
 * The translator of the page's language: write the English text as t's first argument, and put its Spanish in
 * forms/es/ui/*.json under that English text.
 */
export function useText(): Translator {
  return useContext(LocaleContext).t
}
