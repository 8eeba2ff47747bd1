import path from 'node:path'
import type { RJSFSchema } from '@rjsf/utils'
import { describe, expect, it } from 'vitest'
import { makeClaimData } from '../tests/server/support/claim-fixtures.ts'
import { claimValidator } from './claim-validator.ts'
import { validateSubmission } from './validate-submission.ts'
import { loadFormConfigs } from '../server/forms/load-form-configs.ts'

// the Step 2 form as the server serves it: forms/brigit.json laid over forms/base/step2.json
const brigit = loadFormConfigs(path.resolve(import.meta.dirname, '..', 'forms')).get('brigit')!

/** A claim as the server checks it: the uploaded file's name sits in screenshotFile. */
function makeCheckedClaim(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return makeClaimData({ screenshotFile: 'statement.png', ...overrides })
}

function check(data: unknown, schema: RJSFSchema = brigit.schema) {
  return validateSubmission({ validator: claimValidator, schema, data })
}

describe('validateSubmission with the brigit schema', () => {
  it('passes a complete, valid claim with no messages', () => {
    expect(check(makeCheckedClaim())).toEqual({ isValid: true, fields: {} })
  })

  it('passes the smallest and largest allowed counts', () => {
    expect(check(makeCheckedClaim({ cashAdvanceCount: 1, membershipMonths: 1 })).isValid).toBe(true)
    expect(check(makeCheckedClaim({ cashAdvanceCount: 100, membershipMonths: 36 })).isValid).toBe(true)
  })

  it('passes an email with spaces around it, which the server trims', () => {
    expect(check(makeCheckedClaim({ email: '  jane@example.com ' })).isValid).toBe(true)
  })

  it('gives every Step 2 message at once for an empty claim', () => {
    const result = check({})

    expect(result.isValid).toBe(false)
    expect(result.fields).toEqual({
      firstName: { __errors: ['First name is required'] },
      lastName: { __errors: ['Last name is required'] },
      email: { __errors: ['Email is required'] },
      phoneNumber: { __errors: ['Phone number is required'] },
      cashAdvanceCount: { __errors: ['Please enter a valid number between 1 and 100'] },
      membershipMonths: { __errors: ['Please enter a valid number between 1 and 36'] },
      screenshotFile: { __errors: ['Bank statement screenshot is required'] },
      signature: { __errors: ['Please provide your signature'] },
    })
  })

  it.each([
    { field: 'firstName', value: '', message: 'First name is required' },
    { field: 'firstName', value: '   ', message: 'First name is required' },
    { field: 'lastName', value: '', message: 'Last name is required' },
    { field: 'lastName', value: '\t', message: 'Last name is required' },
    { field: 'email', value: 'jane@example', message: 'Please enter a valid email address' },
    { field: 'email', value: 'jane@@example.com', message: 'Please enter a valid email address' },
    { field: 'phoneNumber', value: '', message: 'Phone number is required' },
    { field: 'phoneNumber', value: '() -', message: 'Phone number is required' },
    { field: 'cashAdvanceCount', value: 0, message: 'Please enter a valid number between 1 and 100' },
    { field: 'cashAdvanceCount', value: 101, message: 'Please enter a valid number between 1 and 100' },
    { field: 'cashAdvanceCount', value: '3', message: 'Please enter a valid number between 1 and 100' },
    { field: 'membershipMonths', value: 0, message: 'Please enter a valid number between 1 and 36' },
    { field: 'membershipMonths', value: 37, message: 'Please enter a valid number between 1 and 36' },
    { field: 'membershipMonths', value: 1.5, message: 'Please enter a valid number between 1 and 36' },
    { field: 'screenshotFile', value: '', message: 'Bank statement screenshot is required' },
    { field: 'signature', value: '', message: 'Please provide your signature' },
    { field: 'signature', value: 'data:image/jpeg;base64,AAAA', message: 'Please provide your signature' },
  ])('says "$message" when $field is $value', ({ field, value, message }) => {
    expect(check(makeCheckedClaim({ [field]: value })).fields).toEqual({ [field]: { __errors: [message] } })
  })

  it('says "Email is required" when the email is missing', () => {
    expect(check(makeCheckedClaim({ email: undefined })).fields).toEqual({
      email: { __errors: ['Email is required'] },
    })
  })

  it.each(['', '   '])('says "Email is required" when the email is blank (%j)', (email) => {
    expect(check(makeCheckedClaim({ email })).fields).toEqual({
      email: { __errors: ['Email is required'] },
    })
  })

  it('asks for ten digits when the phone is incomplete, so partial numbers cannot collide', () => {
    expect(check(makeCheckedClaim({ phoneNumber: '(555' })).fields).toEqual({
      phoneNumber: { __errors: ['Please enter a valid 10-digit phone number'] },
    })
  })

  it('uses the keyword-specific message when there is one, such as a too long first name', () => {
    expect(check(makeCheckedClaim({ firstName: 'J'.repeat(101) })).fields).toEqual({
      firstName: { __errors: ['First name must be at most 100 characters'] },
    })
  })

  it('names a field the form does not have', () => {
    expect(check(makeCheckedClaim({ ssn: '123-45-6789' })).fields).toEqual({
      ssn: { __errors: ['"ssn" is not a field of this form'] },
    })
  })

  it('names an unknown field called like an Object method, such as "constructor"', () => {
    expect(check(makeCheckedClaim({ constructor: 1 })).fields).toEqual({
      constructor: { __errors: ['"constructor" is not a field of this form'] },
    })
  })

  it('gives one message per field even when a value breaks several rules', () => {
    const result = check(makeCheckedClaim({ email: ` ${'x'.repeat(300)} ` }))

    expect(result.fields.email?.__errors).toHaveLength(1)
  })

  it('falls back to the field title and the rule when the schema has no errorMessage', () => {
    const schema: RJSFSchema = {
      type: 'object',
      properties: { nickname: { type: 'string', title: 'Nickname', maxLength: 3 } },
    }

    expect(check({ nickname: 'Janey' }, schema).fields).toEqual({
      nickname: { __errors: ['Nickname must NOT have more than 3 characters'] },
    })
  })

  it('refuses a claim that is not an object', () => {
    const result = check(['Jane'])

    expect(result.isValid).toBe(false)
    expect(result.fields['']?.__errors[0]).toMatch(/^the claim must be object/)
  })
})
