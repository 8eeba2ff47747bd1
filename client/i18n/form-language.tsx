import { useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react'
import { DEFAULT_LOCALE, translator, type Locale } from '../../src/translate.ts'
import { LocaleContext, useLocale, type LocaleState } from './use-text.ts'

/** The languages the page's form is offered in (its config's `languages`); undefined: every one. */
let pageLanguages: readonly string[] | undefined
const listeners = new Set<() => void>()

function setPageLanguages(languages: readonly string[] | undefined): void {
  pageLanguages = languages
  for (const listener of listeners) listener()
}

/** For the language switch: the languages the form on the page is offered in, if it names them. */
export function usePageLanguages(): readonly string[] | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => pageLanguages,
  )
}

/**
 * Shows a form in a language it is offered in: the page's, or English (the language every form is
 * written in) with a one-line note in the page's language saying so. Everything inside (labels, the
 * widgets' texts, the agreement, the claim sent) is then in the form's language.
 */
export function FormLanguage({
  languages,
  children,
}: {
  languages?: readonly string[]
  children: ReactNode
}) {
  const page = useLocale()
  useEffect(() => {
    setPageLanguages(languages)
    return () => setPageLanguages(undefined)
  }, [languages])
  const isOffered = languages === undefined || languages.includes(page.locale)
  const english: LocaleState = useMemo(
    () => ({ locale: DEFAULT_LOCALE, setLocale: page.setLocale, t: translator(undefined) }),
    [page.setLocale],
  )
  if (isOffered) return children
  return (
    <>
      <p className="form-language-note" role="note" lang={page.locale}>
        {page.t('This form is available in English only.')}
      </p>
      <div lang={DEFAULT_LOCALE}>
        <LocaleContext value={english}>{children}</LocaleContext>
      </div>
    </>
  )
}

/** Whether a language is one the page's form is offered in (any, on a page without a form). */
export function isOfferedOnPage(languages: readonly string[] | undefined, locale: Locale): boolean {
  return languages === undefined || languages.includes(locale)
}
