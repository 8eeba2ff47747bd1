import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { RJSFSchema, ValidatorType } from '@rjsf/utils'
import { createPrecompiledValidator, type ValidatorFunctions } from '@rjsf/validator-ajv8'
import { afterAll, describe, expect, it } from 'vitest'
import { makeClaimData } from '../../tests/server/support/claim-fixtures.ts'
import { claimValidator } from '../../src/claim-validator.ts'
import { validateSubmission } from '../../src/validate-submission.ts'
import { loadFormConfigs } from './load-form-configs.ts'
import { loadIntakeConfig } from './load-intake-config.ts'
import { loadLanguages } from './languages.ts'
import {
  createValidatorModule,
  createValidatorModuleCode,
  createValidatorModules,
} from './validator-modules.ts'

const FORMS_DIR = path.resolve(import.meta.dirname, '..', '..', 'forms')
const forms = loadFormConfigs(FORMS_DIR)
const intake = loadIntakeConfig(FORMS_DIR)
const moduleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-validators-'))
let moduleCount = 0

afterAll(() => {
  fs.rmSync(moduleDir, { recursive: true, force: true })
})

/** Imports the module as the browser does (an ES module of its own) and wraps it as the form does. */
async function importPrecompiledValidator(schema: RJSFSchema): Promise<ValidatorType> {
  const file = path.join(moduleDir, `validator-${moduleCount++}.mjs`)
  fs.writeFileSync(file, await createValidatorModule(schema, 'the test form'))
  const { validateFns } = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as {
    validateFns: ValidatorFunctions
  }
  return createPrecompiledValidator(validateFns, schema)
}

const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgo='

/** Claims that pass and claims that break each rule, checked as the server checks them. */
const CLAIMS: Record<string, unknown>[] | unknown[] = [
  makeClaimData({ screenshotFile: 'statement.png' }),
  {},
  ['Jane'],
  'Jane',
  makeClaimData({ screenshotFile: 'statement.png', firstName: '   ', email: 'jane@@example.com' }),
  makeClaimData({ screenshotFile: 'statement.png', lastName: 'D'.repeat(101), phoneNumber: '(555' }),
  // 100 emoji are 100 characters for ajv (200 UTF-16 units): the browser must count them the same way
  makeClaimData({ screenshotFile: 'statement.png', firstName: '😀'.repeat(100) }),
  makeClaimData({ screenshotFile: 'statement.png', firstName: '😀'.repeat(101) }),
  makeClaimData({ screenshotFile: 'statement.png', cashAdvanceCount: 0, membershipMonths: 1.5 }),
  makeClaimData({ screenshotFile: 'statement.png', cashAdvanceCount: '3', membershipMonths: 37 }),
  makeClaimData({ screenshotFile: '', signature: 'data:image/jpeg;base64,AAAA' }),
  makeClaimData({ screenshotFile: 'statement.png', email: undefined, phoneNumber: '() -' }),
  makeClaimData({ screenshotFile: 'statement.png', ssn: '123-45-6789', constructor: 1 }),
]

function makeIntake(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin', 'chime'],
    feesIncurred: ['Subscription Fee', 'Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@example.com',
    phone: '8085550100',
    address: '123 Kalakaua Ave',
    city: 'Honolulu',
    state: 'HI',
    zipCode: '96815',
    signature: PNG_DATA_URL,
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}

const INTAKES: unknown[] = [
  makeIntake(),
  {},
  makeIntake({ cashAdvanceApps: [], feesIncurred: ['Nope'] }),
  makeIntake({ cashAdvanceApps: ['earnin', 'earnin'], isOver18: 'yes' }),
  makeIntake({ cashAdvanceApps: ['not-an-app'], state: 'PR', zipCode: ' ' }),
  makeIntake({ email: 'jane@example', phone: '', consentAgreed: false }),
  makeIntake({ firstName: '😀'.repeat(300), signature: 'data:image/png;base64,' }),
  makeIntake({ hasBankruptcy: undefined, communicationsConsent: 'true', extra: 1 }),
]

describe('createValidatorModule', () => {
  it.each([...forms.keys()])(
    'gives the same messages in the browser as the server for every sample claim (%s)',
    async (slug) => {
      const { schema } = forms.get(slug)!
      const precompiled = await importPrecompiledValidator(schema)

      for (const data of CLAIMS) {
        expect(validateSubmission({ validator: precompiled, schema, data })).toEqual(
          validateSubmission({ validator: claimValidator, schema, data }),
        )
      }
    },
  )

  it('gives the same messages in the browser as the server for every sample intake', async () => {
    const { schema } = intake
    const precompiled = await importPrecompiledValidator(schema)

    for (const data of INTAKES) {
      expect(validateSubmission({ validator: precompiled, schema, data })).toEqual(
        validateSubmission({ validator: claimValidator, schema, data }),
      )
    }
  })

  it('leaves no require() and nothing that needs eval in the module', async () => {
    const code = await createValidatorModule(intake.schema, 'the intake form')

    expect(code).not.toMatch(/\brequire\(/)
    expect(code).not.toMatch(/\beval\(|new Function\(/)
    expect(code).toMatch(/export\s*\{[^}]*\bvalidateFns\b|export const validateFns\b/)
  })

  it('names the form when its schema needs an ajv runtime the browser module cannot carry', () => {
    const schema: RJSFSchema = { type: 'object', properties: { site: { type: 'string', format: 'uri' } } }

    expect(() => createValidatorModuleCode(schema, 'form "acme"')).toThrow(
      /the browser validator of form "acme" needs require\("ajv-formats/,
    )
  })
})

describe('createValidatorModules', () => {
  it('compiles each module once and answers later requests from memory', async () => {
    const validators = createValidatorModules({
      languages: loadLanguages({ formsDir: FORMS_DIR, forms, intake }),
    })
    const brigit = forms.get('brigit')!

    const first = validators.forForm(brigit, 'en')
    expect(validators.forForm(brigit, 'en')).toBe(first)
    expect(await first).toContain('validateFns')
  })
})
