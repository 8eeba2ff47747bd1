import fs from 'node:fs'
import path from 'node:path'
import type { RJSFSchema } from '@rjsf/utils'
import { describe, expect, it } from 'vitest'
import { makeClaimData } from '../../tests/server/support/claim-fixtures.ts'
import { claimValidator } from '../../src/claim-validator.ts'
import { loadFormConfigs } from './load-form-configs.ts'
import { validateOnServer } from './validate-on-server.ts'

const brigit = loadFormConfigs(path.resolve(import.meta.dirname, '..', '..', 'forms')).get('brigit')!

/** A claim as the server checks it: the uploaded file's name sits in screenshotFile. */
function makeCheckedClaim(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return makeClaimData({ screenshotFile: 'statement.png', ...overrides })
}

function check(data: unknown, schema: RJSFSchema = brigit.schema) {
  return validateOnServer({ validator: claimValidator, schema, data })
}

it('passes a complete, valid claim with no messages, as validateSubmission does', () => {
  expect(check(makeCheckedClaim())).toEqual({ isValid: true, fields: {} })
})

describe('validateOnServer with values wrong by their size or their characters', () => {
  const intake = JSON.parse(
    fs.readFileSync(path.resolve(import.meta.dirname, '..', '..', 'forms', 'intake.json'), 'utf8'),
  ) as { schema: RJSFSchema }

  it('says "Please enter a valid email address" for 200,000 characters its pattern would backtrack on', () => {
    expect(check(makeCheckedClaim({ email: `a@${'x.'.repeat(100_000)} y` })).fields).toEqual({
      email: { __errors: ['Please enter a valid email address'] },
    })
  })

  it('counts a too long value in characters, not UTF-16 units, as the schema does', () => {
    expect(check(makeCheckedClaim({ firstName: '\u{1f600}'.repeat(100) })).isValid).toBe(true)
    expect(check(makeCheckedClaim({ firstName: '\u{1f600}'.repeat(101) })).fields).toEqual({
      firstName: { __errors: ['First name must be at most 100 characters'] },
    })
  })

  it('refuses a list of more apps than there are to choose, with the field message', () => {
    const apps = ['earnin', 'chime', 'moneylion', 'floatme', 'earnin']

    expect(check({ cashAdvanceApps: apps }, intake.schema).fields.cashAdvanceApps).toEqual({
      __errors: ['Please choose from the apps listed'],
    })
  })

  it('names the first 20 of 1,000 fields the form does not have', () => {
    const data = makeCheckedClaim()
    for (let i = 0; i < 1000; i++) data[`extra${i}`] = i
    const result = check(data)

    expect(result.isValid).toBe(false)
    expect(Object.keys(result.fields)).toEqual(Array.from({ length: 20 }, (_, i) => `extra${i}`))
  })

  it('names a field called "__proto__" instead of taking it for the prototype', () => {
    const data = { ...makeCheckedClaim(), ...(JSON.parse('{"__proto__": {"isAdmin": true}}') as object) }

    expect(Object.entries(check(data).fields)).toEqual([
      ['__proto__', { __errors: ['"__proto__" is not a field of this form'] }],
    ])
  })

  it.each([
    ['NUL', 'Ja\u0000ne'],
    ['a bell', 'Ja\u0007ne'],
    ['DEL', 'Jane\u007f'],
    ['an unpaired high surrogate', 'Jane\ud83d'],
    ['an unpaired low surrogate', '\ude00Jane'],
    ['a low surrogate after a whole pair', 'Jane\u{1f600}\ude00'],
  ])('refuses a first name holding %s, which the database cannot store as text', (_what, firstName) => {
    expect(check(makeCheckedClaim({ firstName })).fields).toEqual({
      firstName: {
        __errors: [
          'First Name contains a character that is not allowed (a control character or an unpaired surrogate)',
        ],
      },
    })
  })

  it.each([
    ['combining marks', 'Zoe\u0308\u0301'],
    ['a right-to-left mark', 'Ali\u200f'],
    ['an emoji sequence', '\u{1f469}\u200d\u{1f4bb}'],
    ['two emoji in a row', '\u{1f600}\u{1f600}'],
    ['Cyrillic look-alikes', 'J\u0430ne'],
    ['a tab', 'Mary\tAnn'],
  ])('accepts a first name with %s', (_what, firstName) => {
    expect(check(makeCheckedClaim({ firstName })).isValid).toBe(true)
  })
})
