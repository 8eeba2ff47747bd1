import { use, useCallback, useMemo, useState, type ReactNode } from 'react'
import { translator, type Dictionary, type Locale } from '../../src/translate.ts'
import { setCurrentLocale, withLang } from './locale.ts'
import { LocaleContext, type LocaleState } from './use-text.ts'

const loading = new Map<Locale, Promise<Dictionary | undefined>>()

/**
 * The pages' texts in a language, fetched once; English is the code's own. A failed fetch leaves the
 * page in English rather than blank, and is tried again on the next switch.
 */
export function loadTexts(locale: Locale): Promise<Dictionary | undefined> {
  if (locale === 'en') return Promise.resolve(undefined)
  let texts = loading.get(locale)
  if (!texts) {
    texts = fetch(withLang('/api/ui-text', locale), { headers: { Accept: 'application/json' } })
      .then((response) => (response.ok ? (response.json() as Promise<Dictionary>) : undefined))
      .catch(() => undefined)
    void texts.then((loaded) => loaded === undefined && loading.delete(locale))
    loading.set(locale, texts)
  }
  return texts
}

/** Gives every page its language; a switch re-renders them once the new texts have arrived. */
export function LocaleProvider({ initialLocale, children }: { initialLocale: Locale; children: ReactNode }) {
  const [locale, setLocaleState] = useState(initialLocale)
  // suspends (inside main's Suspense) until the language's texts are here, so no English flashes first
  const dictionary = use(loadTexts(locale))
  const setLocale = useCallback((next: Locale) => {
    void loadTexts(next).then(() => {
      setCurrentLocale(next)
      setLocaleState(next)
    })
  }, [])
  const state: LocaleState = useMemo(
    () => ({ locale, setLocale, t: translator(dictionary) }),
    [locale, setLocale, dictionary],
  )
  return <LocaleContext value={state}>{children}</LocaleContext>
}
