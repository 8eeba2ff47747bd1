import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FILING_FIELDS } from './filing-config.ts'

const SCHEMA = path.resolve(import.meta.dirname, '..', 'forms', 'provider-profile.schema.json')

describe('the filing fields', () => {
  it('are the ones the provider profile schema lets a column name, no more and no fewer', () => {
    const schema = JSON.parse(fs.readFileSync(SCHEMA, 'utf8')) as {
      definitions: { field: { enum: string[] } }
    }
    expect([...schema.definitions.field.enum].sort()).toEqual([...FILING_FIELDS].sort())
  })
})
