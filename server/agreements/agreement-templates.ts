import Handlebars from 'handlebars'
import type { AgreementContext } from '../../src/agreement-context.ts'
import { readAgreementSources, TEMPLATE_OPTIONS } from './agreement-sources.ts'

export interface AgreementTemplates {
  version: string
  has(variant: string): boolean
  render(variant: string, context: AgreementContext): string
}

/** Compiles agreements/ once at start-up (the browser gets the same files precompiled by Vite). */
export function loadAgreementTemplates(dir?: string): AgreementTemplates {
  const sources = readAgreementSources(dir)
  const handlebars = Handlebars.create()
  for (const [name, source] of Object.entries(sources.partials)) {
    handlebars.registerPartial(name, handlebars.compile(source, TEMPLATE_OPTIONS))
  }
  const variants = new Map(
    Object.entries(sources.variants).map(([name, source]) => [
      name,
      handlebars.compile(source, TEMPLATE_OPTIONS),
    ]),
  )
  return {
    version: sources.version,
    has: (variant) => variants.has(variant),
    render(variant, context) {
      const template = variants.get(variant)
      if (!template) throw new Error(`agreement template "${variant}" not found in agreements/`)
      return template(context)
    },
  }
}
