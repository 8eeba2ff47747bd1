import fs from 'node:fs'
import path from 'node:path'
import type { FormConfig } from '../../src/form-config.ts'
import type { IntakeConfig } from '../../src/intake-config.ts'
import { configTexts, localizeConfig } from '../../src/localize-config.ts'
import { LOCALES, translator, type Dictionary, type Locale, type Translator } from '../../src/translate.ts'
import { configFileOf, FormConfigError, INTAKE_CONFIG_FILE } from '../forms/load-form-configs.ts'

/** Every config and text in each language, built once at start-up. */
export interface Languages {
  forms(locale: Locale): Map<string, FormConfig>
  intake(locale: Locale): IntakeConfig
  /** Translates the server's own claimant-facing texts (messages, the PDF, the e-mail copy). */
  t(locale: Locale): Translator
  /** What t(locale) translates with (undefined in English), for a thread that translates on its own. */
  dictionary(locale: Locale): Dictionary | undefined
  /** The browser's own texts (forms/<locale>/ui/*.json), for GET /api/ui-text. */
  browserTexts(locale: Locale): Dictionary
}

/** forms/<locale>/config.json holds the configs' texts; forms/<locale>/ui/*.json the pages' and the server's. */
const CONFIG_TEXTS_FILE = 'config.json'
const UI_TEXTS_DIR = 'ui'

/**
 * Reads the translations beside the configs and localises every config once. A config text with no
 * translation stops the start-up, every one listed with its file and JSON pointer.
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
  const problems: string[] = []
  const built = new Map<
    Locale,
    {
      forms: Map<string, FormConfig>
      intake: IntakeConfig
      t: Translator
      dictionary: Dictionary | undefined
      browser: Dictionary
    }
  >()
  for (const locale of LOCALES) {
    if (locale === 'en') {
      built.set(locale, { forms, intake, t: translator(undefined), dictionary: undefined, browser: {} })
      continue
    }
    const folder = path.join(formsDir, locale)
    const browser = readDictionaries(path.join(folder, UI_TEXTS_DIR), problems)
    const configDictionary = readDictionary(path.join(folder, CONFIG_TEXTS_FILE), problems)
    const dictionary: Dictionary = { ...configDictionary, ...browser }
    const where = `${path.basename(formsDir)}/${locale}/${CONFIG_TEXTS_FILE}`
    // a text missing from the shared base is one problem, named after the base, not one per app
    const missing = new Set<string>()
    const check = (fileOf: (pointer: string) => string, config: unknown) => {
      for (const { pointer, text } of configTexts(config)) {
        if (!Object.hasOwn(dictionary, text)) {
          missing.add(
            `${fileOf(pointer)}: ${pointer}: no ${locale} text for ${JSON.stringify(text)} in ${where}`,
          )
        }
      }
    }
    for (const config of forms.values()) check((pointer) => configFileOf(formsDir, config, pointer), config)
    check(() => `${path.basename(formsDir)}/${INTAKE_CONFIG_FILE}`, intake)
    problems.push(...missing)
    const t = translator(dictionary)
    built.set(locale, {
      forms: new Map([...forms].map(([slug, config]) => [slug, localizeConfig(config, t)])),
      intake: localizeConfig(intake, t),
      t,
      dictionary,
      browser,
    })
  }
  if (problems.length > 0) throw new FormConfigError(problems)
  const of = (locale: Locale) => built.get(locale)!
  return {
    forms: (locale) => of(locale).forms,
    intake: (locale) => of(locale).intake,
    t: (locale) => of(locale).t,
    dictionary: (locale) => of(locale).dictionary,
    browserTexts: (locale) => of(locale).browser,
  }
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
