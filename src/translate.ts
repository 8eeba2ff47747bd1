/** The languages every claimant page, message, agreement, PDF and e-mail copy exist in. */
export const LOCALES = ['en', 'es'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'en'

/** A language's texts keyed by their English text (forms/es/…): a changed English text has no translation until one is written. */
export type Dictionary = Readonly<Record<string, string>>

export type TextValues = Readonly<Record<string, string | number>>

/**
 * The locale a query parameter, header or stored choice names, if it is one we have.
 * @example parseLocale('es') // 'es'
 */
export function parseLocale(value: unknown): Locale | undefined {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
    ? (value as Locale)
    : undefined
}

/**
 * A text with its `{name}` slots filled.
 * @example fillText('Upload a screenshot for {app}', { app: 'Brigit' }) // 'Upload a screenshot for Brigit'
 */
export function fillText(text: string, values?: TextValues): string {
  if (!values) return text
  return text.replace(/\{(\w+)\}/g, (slot, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : slot,
  )
}

/**
 * The English text in the dictionary's language (English itself without one), slots filled.
 * @example translate({ 'Clear': 'Borrar' }, 'Clear') // 'Borrar'
 */
export function translate(dictionary: Dictionary | undefined, english: string, values?: TextValues): string {
  const text = dictionary && Object.hasOwn(dictionary, english) ? dictionary[english]! : english
  return fillText(text, values)
}

/** Translates texts in one language: `t('Clear')`. */
export type Translator = (english: string, values?: TextValues) => string

/** The translator of a dictionary (English when there is none). */
export function translator(dictionary: Dictionary | undefined): Translator {
  return (english, values) => translate(dictionary, english, values)
}
