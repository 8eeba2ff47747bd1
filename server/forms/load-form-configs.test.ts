import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  BASE_CONFIG_FILE,
  FormConfigError,
  INTAKE_CONFIG_FILE,
  loadFormConfigs,
  META_SCHEMA_FILE,
} from './load-form-configs.ts'
import { loadIntakeConfig } from './load-intake-config.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')
const STEP_2_SLUGS = [
  'super-com',
  'brigit',
  'albert',
  'cleo',
  'earnin',
  'empower',
  'floatme',
  'klover',
  'moneylion',
  'dailypay',
  'chime',
]

type Json = Record<string, unknown>

function readJsonFile(file: string): Json {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Json
}

/** brigit.json (an app's own short file) turned into another app, with overrides applied on top. */
function makeFormConfig(slug: string, overrides: Json = {}): Json {
  return { ...readJsonFile(path.join(FORMS_DIR, 'brigit.json')), slug, displayName: slug, ...overrides }
}

const BASE = readJsonFile(path.join(FORMS_DIR, BASE_CONFIG_FILE))

const madeDirs: string[] = []

/**
 * A forms dir holding the real meta-schema and the real base (unless `base` replaces it), and the given
 * files (objects become JSON, strings are written as is).
 */
function makeFormsDir(files: Record<string, Json | string>, base: Json = BASE): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forms-'))
  madeDirs.push(dir)
  fs.copyFileSync(path.join(FORMS_DIR, META_SCHEMA_FILE), path.join(dir, META_SCHEMA_FILE))
  fs.mkdirSync(path.dirname(path.join(dir, BASE_CONFIG_FILE)), { recursive: true })
  fs.writeFileSync(path.join(dir, BASE_CONFIG_FILE), JSON.stringify(base, null, 2))
  for (const [name, content] of Object.entries(files)) {
    fs.writeFileSync(
      path.join(dir, name),
      typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    )
  }
  return dir
}

/** The problems loadFormConfigs reports for a dir, failing the test if it loads. */
function problemsOf(dir: string): string[] {
  try {
    loadFormConfigs(dir)
  } catch (error) {
    expect(error).toBeInstanceOf(FormConfigError)
    return (error as FormConfigError).problems
  }
  throw new Error(`expected ${dir} to be refused`)
}

afterEach(() => {
  for (const dir of madeDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('loadFormConfigs', () => {
  it('loads the 11 Step 2 apps from forms/, keyed by slug', () => {
    const configs = loadFormConfigs(FORMS_DIR)

    expect([...configs.keys()].sort()).toEqual([...STEP_2_SLUGS].sort())
    expect(configs.get('brigit')?.displayName).toBe('Brigit')
  })

  it('loads a valid config dropped into a forms dir', () => {
    const dir = makeFormsDir({ 'acme-cash.json': makeFormConfig('acme-cash') })

    expect([...loadFormConfigs(dir).keys()]).toEqual(['acme-cash'])
  })

  it('names the file, the pointer and the reason when a required property such as "intro" is missing', () => {
    const { intro: _intro, ...withoutIntro } = makeFormConfig('acme-cash')
    const dir = makeFormsDir({ 'acme-cash.json': withoutIntro })

    expect(problemsOf(dir)).toEqual([
      `${path.basename(dir)}/acme-cash.json: /: must have required property 'intro'`,
    ])
  })

  it('names the uiSchema field and the allowed widgets when a widget name is misspelt', () => {
    const dir = makeFormsDir({
      'acme-cash.json': makeFormConfig('acme-cash', { uiSchema: { phoneNumber: { 'ui:widget': 'phoen' } } }),
    })

    const [problem, ...rest] = problemsOf(dir)

    expect(rest).toEqual([])
    expect(problem).toMatch(
      /acme-cash\.json: \/uiSchema\/phoneNumber\/ui:widget: must be equal to one of the allowed values/,
    )
    expect(problem).toContain('"phone"')
  })

  it('refuses a config whose slug differs from its file name', () => {
    const dir = makeFormsDir({ 'acme-cash.json': makeFormConfig('acme') })

    expect(problemsOf(dir)).toEqual([
      `${path.basename(dir)}/acme-cash.json: /slug: "acme" must equal the file name "acme-cash"`,
    ])
  })

  it('names the file and the parse error when a config is not valid JSON', () => {
    const dir = makeFormsDir({ 'acme-cash.json': '{ "slug": "acme-cash", }' })

    const [problem, ...rest] = problemsOf(dir)

    expect(rest).toEqual([])
    expect(problem).toMatch(new RegExp(`^${path.basename(dir)}/acme-cash\\.json: .*JSON`))
  })

  it('refuses a form schema with a misspelt keyword such as "maxLenght"', () => {
    const dir = makeFormsDir({
      'acme-cash.json': makeFormConfig('acme-cash', {
        schema: { properties: { firstName: { maxLenght: 100 } } },
      }),
    })

    const [problem, ...rest] = problemsOf(dir)

    expect(rest).toEqual([])
    expect(problem).toMatch(/acme-cash\.json: \/schema: strict mode: unknown keyword: "maxLenght"/)
  })

  it('refuses a field with a pattern but no maxLength, naming the base when the field comes from it', () => {
    const schema = BASE.schema as { properties: Record<string, Json> }
    const { maxLength: _dropped, ...email } = schema.properties.email as Record<string, Json>
    const base = { ...BASE, schema: { ...schema, properties: { ...schema.properties, email } } }
    const dir = makeFormsDir({ 'acme-cash.json': makeFormConfig('acme-cash') }, base)

    expect(problemsOf(dir).join('\n')).toMatch(
      /base\/step2\.json: \/schema\/properties\/email: must have required property 'maxLength'/,
    )
  })

  it('refuses a box that starts ticked: a boolean field with "default": true, in an app or the intake', () => {
    const consent = { type: 'boolean', title: 'I agree to be contacted about my claim', default: true }
    const dir = makeFormsDir({
      'acme-cash.json': makeFormConfig('acme-cash', {
        schema: { properties: { contactConsent: consent } },
      }),
    })

    expect(problemsOf(dir).join('\n')).toMatch(
      /acme-cash\.json: \/schema\/properties\/contactConsent\/default: must be equal to constant: false/,
    )

    const intake = readJsonFile(path.join(FORMS_DIR, INTAKE_CONFIG_FILE)) as {
      schema: { properties: Record<string, Json> }
    }
    intake.schema.properties.communicationsConsent!.default = true
    const intakeDir = makeFormsDir({ [INTAKE_CONFIG_FILE]: intake })
    fs.copyFileSync(
      path.join(FORMS_DIR, 'intake-config.schema.json'),
      path.join(intakeDir, 'intake-config.schema.json'),
    )
    expect(() => loadIntakeConfig(intakeDir)).toThrow(
      /intake\.json: \/schema\/properties\/communicationsConsent\/default: must be equal to constant: false/,
    )
  })

  it('loads forms/intake.json with both consent boxes unticked', () => {
    const { schema } = loadIntakeConfig(FORMS_DIR)
    const properties = schema.properties as Record<string, Json>
    expect([properties.consentAgreed!.default, properties.communicationsConsent!.default]).toEqual([
      undefined,
      undefined,
    ])
  })

  it("lays an app's file over the base: one key overridden, the rest of the base kept", () => {
    const dir = makeFormsDir({
      'acme-cash.json': makeFormConfig('acme-cash', {
        schema: { properties: { firstName: { title: 'Given Name' } } },
        uiSchema: { phoneNumber: { 'ui:placeholder': '(555) 000-0000' } },
      }),
    })

    const config = loadFormConfigs(dir).get('acme-cash')!
    const firstName = config.schema.properties!.firstName as Json
    const base = BASE.schema as { properties: Record<string, Json>; required: string[] }
    expect(firstName).toEqual({ ...base.properties.firstName, title: 'Given Name' })
    expect(config.schema.required).toEqual(base.required)
    expect(config.uiSchema.phoneNumber).toMatchObject({
      'ui:widget': 'phone',
      'ui:placeholder': '(555) 000-0000',
    })
    expect(config.intro).toBe(makeFormConfig('acme-cash').intro)
  })

  it('refuses to start without the base, naming it', () => {
    const dir = makeFormsDir({ 'acme-cash.json': makeFormConfig('acme-cash') })
    fs.rmSync(path.join(dir, BASE_CONFIG_FILE))

    expect(problemsOf(dir)).toEqual([expect.stringMatching(/base\/step2\.json: ENOENT/)])
  })

  it('refuses a schema that requires a field it does not define', () => {
    const { required } = BASE.schema as { required: string[] }
    const dir = makeFormsDir({
      'acme-cash.json': makeFormConfig('acme-cash', { schema: { required: [...required, 'nickname'] } }),
    })

    expect(problemsOf(dir)).toContain(
      `${path.basename(dir)}/acme-cash.json: /schema/required: "nickname" is required but has no property`,
    )
  })

  it('reports every broken file together, not only the first', () => {
    const { intro: _intro, ...withoutIntro } = makeFormConfig('alpha')
    const dir = makeFormsDir({
      'alpha.json': withoutIntro,
      'beta.json': '{ not json',
      'gamma.json': makeFormConfig('gamma-cash'),
      'ok.json': makeFormConfig('ok'),
    })

    const problems = problemsOf(dir)

    expect(problems).toHaveLength(3)
    expect(problems[0]).toMatch(/alpha\.json: \/: must have required property 'intro'/)
    expect(problems[1]).toMatch(/beta\.json: /)
    expect(problems[2]).toMatch(/gamma\.json: \/slug: "gamma-cash" must equal the file name "gamma"/)
  })

  it('puts every problem in the error message, one per line', () => {
    const dir = makeFormsDir({ 'beta.json': '{', 'gamma.json': makeFormConfig('delta') })

    expect(() => loadFormConfigs(dir)).toThrow(
      /invalid form config:\n {2}.*beta\.json: .*\n {2}.*gamma\.json: \/slug/,
    )
  })

  it('refuses a forms dir with no config in it', () => {
    const dir = makeFormsDir({})

    expect(problemsOf(dir)).toEqual([`${dir}: no form config (*.json) found`])
  })
})
