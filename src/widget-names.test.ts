import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { WIDGET_NAMES } from './widget-names.ts'

const FORMS = path.resolve(import.meta.dirname, '..', 'forms')

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

/** Every "ui:widget" value anywhere in a JSON document. */
function namedWidgets(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(namedWidgets)
  if (value === null || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'ui:widget' && typeof inner === 'string' ? [inner] : namedWidgets(inner),
  )
}

describe('the widget names', () => {
  it('are the ones the Step 2 meta-schema lets a config name, no more and no fewer', () => {
    const schema = readJson(path.join(FORMS, 'form-config.schema.json')) as {
      definitions?: unknown
      properties: { uiSchema: { additionalProperties: { properties: { 'ui:widget': { enum: string[] } } } } }
    }
    const allowed = schema.properties.uiSchema.additionalProperties.properties['ui:widget'].enum
    expect([...allowed].sort()).toEqual([...WIDGET_NAMES].sort())
  })

  it('cover every widget the configs in forms/ name', () => {
    const configs = fs
      .readdirSync(FORMS, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.json') && !file.endsWith('.schema.json'))
    expect(configs.length).toBeGreaterThan(11)
    const named = new Set(configs.flatMap((file) => namedWidgets(readJson(path.join(FORMS, file)))))
    expect(named.size).toBeGreaterThan(5)
    for (const widget of named) expect(WIDGET_NAMES, `"ui:widget": "${widget}" in forms/`).toContain(widget)
  })
})
