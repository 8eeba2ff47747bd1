import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FormConfigError, loadFormConfigs } from '../forms/load-form-configs.ts'
import { loadIntakeConfig } from '../forms/load-intake-config.ts'
import { loadLanguages } from './languages.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')
const forms = loadFormConfigs(FORMS_DIR)
const intake = loadIntakeConfig(FORMS_DIR)
const tempDirs: string[] = []

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A copy of forms/ whose Spanish config texts lack the given English texts. */
function formsWithout(...english: string[]): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-i18n-'))
  tempDirs.push(parent)
  const dir = path.join(parent, 'forms')
  fs.cpSync(FORMS_DIR, dir, { recursive: true })
  const file = path.join(dir, 'es', 'config.json')
  const texts = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>
  for (const text of english) delete texts[text]
  fs.writeFileSync(file, JSON.stringify(texts))
  return dir
}

function problemsOf(formsDir: string): string[] {
  try {
    loadLanguages({ formsDir, forms, intake })
  } catch (error) {
    if (error instanceof FormConfigError) return error.problems
    throw error
  }
  return []
}

describe('loadLanguages', () => {
  it('has a Spanish text for every text of every config in forms/', () => {
    expect(problemsOf(FORMS_DIR)).toEqual([])
  })

  it('refuses to start when an English text has no Spanish one, naming the file and the JSON pointer', () => {
    const problems = problemsOf(formsWithout('Submit Brigit Claim', 'First Name'))

    expect(problems).toContain(
      'forms/brigit.json: /submitLabel: no es text for "Submit Brigit Claim" in forms/es/config.json',
    )
    expect(problems).toContain(
      'forms/intake.json: /schema/properties/firstName/title: no es text for "First Name" in forms/es/config.json',
    )
    // one line per place: the apps' first-name field is the shared base's, named once
    expect(problems).toContain(
      'forms/base/step2.json: /schema/properties/firstName/title: no es text for "First Name" in forms/es/config.json',
    )
    expect(problems.filter((problem) => problem.includes('/schema/properties/firstName/title'))).toHaveLength(
      2,
    )
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
    expect(languages.forms('en').get('brigit')).toBe(english)
  })
})
