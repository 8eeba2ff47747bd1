import { pathInLocale } from '../../src/api/claim-request.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../src/translate.ts'

const STORAGE_KEY = 'lang'

let current: Locale = DEFAULT_LOCALE

/**
 * The page's language at start: `?lang=es` (a link an ad can carry), else the claimant's earlier
 * choice, else the browser's language on this first visit; whichever decides is remembered.
 */
export function startLocale(): Locale {
  const fromUrl = parseLocale(new URLSearchParams(window.location.search).get('lang'))
  const locale = fromUrl ?? parseLocale(readStored()) ?? browserLocale()
  setCurrentLocale(locale)
  return locale
}

export function currentLocale(): Locale {
  return current
}

/** Sets the language of every later API request and of `<html lang>`, and remembers it. */
export function setCurrentLocale(locale: Locale): void {
  current = locale
  document.documentElement.lang = locale
  try {
    window.localStorage.setItem(STORAGE_KEY, locale)
  } catch {
    // storage refused (private mode, full): the choice lasts for this page only
  }
}

/**
 * An API address in the page's language; English needs no parameter.
 * @example withLang('/api/forms/brigit') // '/api/forms/brigit?lang=es' on a Spanish page
 */
export function withLang(url: string, locale: Locale = current): string {
  return pathInLocale(url, locale)
}

function readStored(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}

function browserLocale(): Locale {
  const [first = ''] = navigator.languages ?? [navigator.language]
  return first.toLowerCase().startsWith('es') ? 'es' : DEFAULT_LOCALE
}
