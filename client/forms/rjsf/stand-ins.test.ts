import fs from 'node:fs'
import path from 'node:path'
import rjsfFields from '@rjsf/core/lib/components/fields/index.js'
import rjsfTemplates from '@rjsf/core/lib/components/templates/index.js'
import rjsfWidgets from '@rjsf/core/lib/components/widgets/index.js'
import { describe, expect, it } from 'vitest'
import { RJSF_REPLACEMENTS } from '../../../vite.config.ts'
import fields from './fields.tsx'
import templates from './templates.tsx'
import widgets from './widgets.tsx'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

const names = (registry: object) => Object.keys(registry).sort()

describe("RJSF's stand-ins", () => {
  it('give the default registry every field, template, button and widget RJSF has, under its names', () => {
    expect(names(fields())).toEqual(names(rjsfFields()))
    expect(names(widgets())).toEqual(names(rjsfWidgets()))
    expect(names(templates())).toEqual(names(rjsfTemplates()))
    expect(names(templates().ButtonTemplates)).toEqual(names(rjsfTemplates().ButtonTemplates))
  })

  it('replace imports RJSF still makes, so that none stops applying unnoticed after an upgrade', () => {
    for (const { source, importer, file } of RJSF_REPLACEMENTS) {
      const code = fs.readFileSync(path.join(ROOT, importer), 'utf8')
      expect(code, `${importer} imports ${source}`).toMatch(
        new RegExp(`from ['"]${source.replaceAll('.', '\\.')}['"]`),
      )
      expect(fs.existsSync(path.join(ROOT, 'client/forms/rjsf', file)), file).toBe(true)
    }
  })
})
