import type { Translator } from './translate.ts'

/** The keys whose string values a claimant reads; everything else (slugs, patterns, stored values) stays. */
const TEXT_KEYS = new Set([
  'title',
  'description',
  'errorMessage',
  'product',
  'intro',
  'screenshotPrompt',
  'submitLabel',
  'consent',
  'line',
  'note',
  'heading',
  'subheading',
  'body',
  'singular',
  'plural',
  'ui:placeholder',
  'ui:help',
  'ui:description',
  'ui:title',
  // the names a select or checkbox group shows for its stored values
  'ui:enumNames',
])

/** Parts of a config that only staff or machines read, and the app's name in a title (a proper name). */
const SKIPPED_KEYS = new Set(['dashboard', 'tracking', '$schema', 'app'])

export interface ConfigText {
  /** JSON pointer of the text in its config: `/schema/properties/firstName/title`. */
  pointer: string
  text: string
}

/**
 * Every text of a config that a claimant reads, with where it is.
 * @example configTexts({ intro: 'Hello', slug: 'brigit' }) // [{ pointer: '/intro', text: 'Hello' }]
 */
export function configTexts(config: unknown): ConfigText[] {
  const texts: ConfigText[] = []
  walk(config, '', false, (pointer, text) => texts.push({ pointer, text }))
  return texts
}

/**
 * A copy of the config with every claimant-read text translated (the stored values, patterns and
 * slugs unchanged).
 * @example localizeConfig({ intro: 'Hello' }, t).intro // 'Hola'
 */
export function localizeConfig<T>(config: T, t: Translator): T {
  return map(config, false, t) as T
}

function walk(
  value: unknown,
  pointer: string,
  isText: boolean,
  found: (pointer: string, text: string) => void,
) {
  if (typeof value === 'string') {
    if (isText && value.trim() !== '') found(pointer, value)
    return
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${pointer}/${index}`, isText, found))
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, child] of Object.entries(value)) {
    if (SKIPPED_KEYS.has(key)) continue
    walk(child, `${pointer}/${escapePointer(key)}`, isText || TEXT_KEYS.has(key), found)
  }
}

function map(value: unknown, isText: boolean, t: Translator): unknown {
  if (typeof value === 'string') return isText && value.trim() !== '' ? t(value) : value
  if (Array.isArray(value)) return value.map((item) => map(item, isText, t))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      SKIPPED_KEYS.has(key) ? child : map(child, isText || TEXT_KEYS.has(key), t),
    ]),
  )
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}
