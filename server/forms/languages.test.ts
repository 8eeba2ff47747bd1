import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadFormConfigs } from './load-form-configs.ts'
import { loadIntakeConfig } from './load-intake-config.ts'
import { createLogger } from '../logger.ts'
import { loadLanguages, logLanguageWarnings } from './languages.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')
const forms = loadFormConfigs(FORMS_DIR)
const intake = loadIntakeConfig(FORMS_DIR)
const tempDirs: string[] = []

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A copy of forms/ whose Spanish config texts lack the given English texts. */
function formsWithout(...english: string[]): string {
  const dir = copyOfForms()
  const file = path.join(dir, 'es', 'config.json')
  const texts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>
  for (const text of english) delete texts[text]
  fs.writeFileSync(file, JSON.stringify(texts))
  return dir
}

/** A copy of forms/ (in a folder named forms, as warnings name it), changed by the caller. */
function copyOfForms(): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-i18n-'))
  tempDirs.push(parent)
  const dir = path.join(parent, 'forms')
  fs.cpSync(FORMS_DIR, dir, { recursive: true })
  return dir
}

/** Sets brigit.json's "languages" in a copy of forms/. */
function withBrigitLanguages(formsDir: string, languages: string[]): string {
  const file = path.join(formsDir, 'brigit.json')
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), languages }))
  return formsDir
}

function languagesOf(formsDir: string) {
  return loadLanguages({ formsDir, forms: loadFormConfigs(formsDir), intake: loadIntakeConfig(formsDir) })
}

describe('loadLanguages', () => {
  it('has a Spanish text for every text of every config in forms/, so every form is offered in Spanish', () => {
    const languages = loadLanguages({ formsDir: FORMS_DIR, forms, intake })

    expect(languages.warnings).toEqual([])
    for (const config of languages.forms('es').values()) expect(config.languages).toEqual(['en', 'es'])
    expect(languages.intake('es').languages).toEqual(['en', 'es'])
  })

  it('warns, naming the file and the JSON pointer, when an English text has no Spanish one', () => {
    const { warnings } = languagesOf(formsWithout('Submit Brigit Claim', 'First Name'))

    expect(warnings).toContain(
      'forms/brigit.json: /submitLabel: no es text for "Submit Brigit Claim" in forms/es/config.json',
    )
    expect(warnings).toContain(
      'forms/intake.json: /schema/properties/firstName/title: no es text for "First Name" in forms/es/config.json',
    )
    // one line per place: the apps' first-name field is the shared base's, named once
    expect(warnings).toContain(
      'forms/base/step2.json: /schema/properties/firstName/title: no es text for "First Name" in forms/es/config.json',
    )
    expect(warnings.filter((warning) => warning.includes('/schema/properties/firstName/title'))).toHaveLength(
      2,
    )
    expect(warnings).toContain('forms/brigit.json: not offered in es: 2 texts have no es translation')
    expect(warnings).toContain('forms/intake.json: not offered in es: 1 text has no es translation')
  })

  it('serves an app missing a Spanish text in English to a Spanish reader, and the others in Spanish', () => {
    const languages = languagesOf(formsWithout('Submit Brigit Claim'))
    const brigit = languages.forms('es').get('brigit')!

    expect(languages.formLocale('brigit', 'es')).toBe('en')
    expect(brigit).toMatchObject({ submitLabel: 'Submit Brigit Claim', intro: forms.get('brigit')!.intro })
    expect(brigit.schema.properties?.firstName).toMatchObject({ title: 'First Name' })
    expect(brigit.languages).toEqual(['en'])
    expect(languages.formLocale('chime', 'es')).toBe('es')
    expect(languages.forms('es').get('chime')!.schema.properties?.firstName).toMatchObject({
      title: 'Nombre',
    })
    expect(languages.intakeLocale('es')).toBe('es')
  })

  it('serves an app in English only when its config names only English, without a warning', () => {
    const languages = languagesOf(withBrigitLanguages(copyOfForms(), ['en']))

    expect(languages.warnings).toEqual([])
    expect(languages.formLocale('brigit', 'es')).toBe('en')
    expect(languages.forms('es').get('brigit')).toMatchObject({
      submitLabel: 'Submit Brigit Claim',
      languages: ['en'],
    })
  })

  it('leaves out, with a warning, a language the config names but has no texts for', () => {
    const formsDir = withBrigitLanguages(formsWithout('Submit Brigit Claim'), ['en', 'es', 'fr'])
    const languages = languagesOf(formsDir)

    expect(languages.warnings).toEqual([
      'forms/brigit.json: /submitLabel: no es text for "Submit Brigit Claim" in forms/es/config.json',
      'forms/brigit.json: /languages: "fr" is not a language of this site (en, es); left out',
      'forms/brigit.json: not offered in es: 1 text has no es translation',
    ])
    expect(languages.forms('es').get('brigit')!.languages).toEqual(['en'])
  })

  it('logs each warning at level warn, naming the text without a translation', () => {
    const lines: string[] = []
    const logger = createLogger('info', { write: (line: string) => lines.push(line) })

    logLanguageWarnings(languagesOf(formsWithout('Submit Brigit Claim')), logger)

    expect(lines.map((line) => JSON.parse(line) as { level: number; msg: string })).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'forms/brigit.json: /submitLabel: no es text for "Submit Brigit Claim" in forms/es/config.json',
      }),
      expect.objectContaining({
        level: 40,
        msg: 'forms/brigit.json: not offered in es: 1 text has no es translation',
      }),
    ])
  })

  it('gives the Spanish config with the stored values, patterns and slugs untouched', () => {
    const languages = loadLanguages({ formsDir: FORMS_DIR, forms, intake })
    const brigit = languages.forms('es').get('brigit')!
    const english = forms.get('brigit')!

    expect(brigit.schema.properties?.firstName).toMatchObject({ title: 'Nombre', maxLength: 100 })
    expect(brigit.slug).toBe('brigit')
    expect(brigit.title.app).toBe('Brigit')
    expect(brigit.schema.properties?.phoneNumber).toMatchObject({
      pattern: (english.schema.properties?.phoneNumber as { pattern: string }).pattern,
    })
    expect(brigit.dashboard).toEqual(english.dashboard)
    expect(languages.forms('en').get('brigit')).toEqual({ ...english, languages: ['en', 'es'] })
  })
})
