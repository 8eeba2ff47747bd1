import fs from 'node:fs'
import path from 'node:path'
import type { FormConfig } from '../../src/form-config.ts'
import type { IntakeConfig } from '../../src/intake-config.ts'
import { configTexts, localizeConfig } from '../../src/localize-config.ts'
import {
  DEFAULT_LOCALE,
  LOCALES,
  parseLocale,
  translator,
  type Dictionary,
  type Locale,
  type Translator,
} from '../../src/translate.ts'
import { configFileOf, INTAKE_CONFIG_FILE } from './load-form-configs.ts'
import type { Logger } from '../logger.ts'

/** Every config and text in each language, built once at start-up. */
export interface Languages {
  /** Every app's config in `locale`, or in English for an app not offered in it (see formLocale). */
  forms(locale: Locale): Map<string, FormConfig>
  /** The intake's config in `locale`, or in English when it is not offered in it. */
  intake(locale: Locale): IntakeConfig
  /** The language an app is served and signed in for a reader asking for `locale`. */
  formLocale(slug: string, locale: Locale): Locale
  /** The same for the intake. */
  intakeLocale(locale: Locale): Locale
  /** Translates the server's own claimant-facing texts (messages, the PDF, the e-mail copy). */
  t(locale: Locale): Translator
  /** What t(locale) translates with (undefined in English), for a thread that translates on its own. */
  dictionary(locale: Locale): Dictionary | undefined
  /** The browser's own texts (forms/<locale>/ui/*.json), for GET /api/ui-text. */
  browserTexts(locale: Locale): Dictionary
  /**
   * Every missing or unreadable translation, one line each with its file and JSON pointer, and the
   * languages each config is offered without because of them. Logged at start-up; check-config lists them.
   */
  warnings: readonly string[]
}

/** forms/<locale>/config.json holds the configs' texts; forms/<locale>/ui/*.json the pages' and the server's. */
const CONFIG_TEXTS_FILE = 'config.json'
const UI_TEXTS_DIR = 'ui'

/** One config's file and where its texts come from, as warnings name them. */
interface ConfigSource<T> {
  config: T
  file: string
  fileOf: (pointer: string) => string
}

/**
 * Reads the translations beside the configs and localises every config once. A config is offered in
 * English and in each language whose texts it has all of (of those its `languages` names, if it names
 * them); a missing text is a warning, never a refusal, so an app with English texts only is served in
 * English to every reader.
 */
export function loadLanguages({
  formsDir,
  forms,
  intake,
}: {
  formsDir: string
  forms: Map<string, FormConfig>
  intake: IntakeConfig
}): Languages {
  const folderName = path.basename(formsDir)
  const unreadable: string[] = []
  const dictionaries = new Map<Locale, { dictionary: Dictionary; browser: Dictionary }>()
  for (const locale of LOCALES) {
    if (locale === DEFAULT_LOCALE) continue
    const folder = path.join(formsDir, locale)
    const browser = readDictionaries(path.join(folder, UI_TEXTS_DIR), unreadable)
    const configDictionary = readDictionary(path.join(folder, CONFIG_TEXTS_FILE), unreadable)
    dictionaries.set(locale, { dictionary: { ...configDictionary, ...browser }, browser })
  }

  // a text missing from the shared base is one line, named after the base, not one per app
  const missingTexts = new Set<string>()
  // what each config is offered without, and why
  const leftOut: string[] = []
  const offeredIn = <T extends { languages?: string[] }>({
    config,
    file,
    fileOf,
  }: ConfigSource<T>): Locale[] => {
    const named = config.languages
    for (const code of named ?? []) {
      if (!parseLocale(code)) {
        leftOut.push(
          `${file}: /languages: "${code}" is not a language of this site (${LOCALES.join(', ')}); left out`,
        )
      }
    }
    if (named && !named.includes(DEFAULT_LOCALE)) {
      leftOut.push(`${file}: /languages: ${DEFAULT_LOCALE} is offered too (every text is written in it)`)
    }
    const offered: Locale[] = [DEFAULT_LOCALE]
    for (const [locale, { dictionary }] of dictionaries) {
      if (named && !named.includes(locale)) continue
      const missing = configTexts(config).filter(({ text }) => !Object.hasOwn(dictionary, text))
      for (const { pointer, text } of missing) {
        missingTexts.add(
          `${fileOf(pointer)}: ${pointer}: no ${locale} text for ${JSON.stringify(text)} in ${folderName}/${locale}/${CONFIG_TEXTS_FILE}`,
        )
      }
      if (missing.length === 0) offered.push(locale)
      else {
        const count = missing.length === 1 ? '1 text has' : `${missing.length} texts have`
        leftOut.push(`${file}: not offered in ${locale}: ${count} no ${locale} translation`)
      }
    }
    return offered
  }

  const formSources = [...forms.values()].map((config) => ({
    config,
    file: path.join(folderName, `${config.slug}.json`),
    fileOf: (pointer: string) => configFileOf(formsDir, config, pointer),
  }))
  const intakeFile = path.join(folderName, INTAKE_CONFIG_FILE)
  const formLanguages = new Map(formSources.map((source) => [source.config.slug, offeredIn(source)]))
  const intakeLanguages = offeredIn({ config: intake, file: intakeFile, fileOf: () => intakeFile })
  const warnings = [...unreadable, ...missingTexts, ...leftOut]

  const translators = new Map<Locale, Translator>(
    LOCALES.map((locale) => [locale, translator(dictionaries.get(locale)?.dictionary)]),
  )
  const servedForms = new Map(
    LOCALES.map((locale) => [
      locale,
      new Map(
        [...forms].map(([slug, config]) => {
          const languages = formLanguages.get(slug)!
          return [slug, served(config, languages, languages.includes(locale) ? locale : DEFAULT_LOCALE)]
        }),
      ),
    ]),
  )
  const servedIntake = new Map(
    LOCALES.map((locale) => [
      locale,
      served(intake, intakeLanguages, intakeLanguages.includes(locale) ? locale : DEFAULT_LOCALE),
    ]),
  )
  function served<T>(config: T, languages: Locale[], locale: Locale): T {
    const localized = locale === DEFAULT_LOCALE ? config : localizeConfig(config, translators.get(locale)!)
    return { ...localized, languages }
  }

  return {
    forms: (locale) => servedForms.get(locale)!,
    intake: (locale) => servedIntake.get(locale)!,
    // an unknown app is served in the language asked for; findFormOrThrow answers its 404
    formLocale: (slug, locale) =>
      (formLanguages.get(slug) ?? [locale]).includes(locale) ? locale : DEFAULT_LOCALE,
    intakeLocale: (locale) => (intakeLanguages.includes(locale) ? locale : DEFAULT_LOCALE),
    t: (locale) => translators.get(locale)!,
    dictionary: (locale) => dictionaries.get(locale)?.dictionary,
    browserTexts: (locale) => dictionaries.get(locale)?.browser ?? {},
    warnings,
  }
}

/** Logs each of the languages' warnings: the texts a firm may want translated (never claimants' data). */
export function logLanguageWarnings(languages: Pick<Languages, 'warnings'>, logger: Logger): void {
  for (const warning of languages.warnings) logger.warn({ translations: 'incomplete' }, warning)
}

function readDictionaries(folder: string, problems: string[]): Dictionary {
  if (!fs.existsSync(folder)) return {}
  const merged: Record<string, string> = {}
  for (const name of fs
    .readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()) {
    const entries = readDictionary(path.join(folder, name), problems)
    for (const [english, text] of Object.entries(entries)) {
      if (Object.hasOwn(merged, english) && merged[english] !== text) {
        problems.push(
          `${path.join(folder, name)}: ${JSON.stringify(english)} is translated differently in another file`,
        )
      }
      merged[english] = text
    }
  }
  return merged
}

function readDictionary(file: string, problems: string[]): Dictionary {
  if (!fs.existsSync(file)) return {}
  try {
    const value: unknown = JSON.parse(fs.readFileSync(file, 'utf8'))
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`${file}: must be an object of "English text": "translation"`)
      return {}
    }
    const entries = Object.entries(value as Record<string, unknown>)
    const bad = entries.filter(([, text]) => typeof text !== 'string' || text.trim() === '')
    for (const [english] of bad)
      problems.push(`${file}: /${english}: the translation must be a non-empty text`)
    return Object.fromEntries(
      entries.filter(([, text]) => typeof text === 'string' && text.trim() !== ''),
    ) as Dictionary
  } catch (error) {
    problems.push(`${file}: ${(error as Error).message}`)
    return {}
  }
}
