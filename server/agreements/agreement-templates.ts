import Handlebars from 'handlebars'
import type { AgreementContext } from '../../src/agreement-context.ts'
import { readAgreementSources, TEMPLATE_OPTIONS, type AgreementSources } from './agreement-sources.ts'

export interface AgreementTemplates {
  version: string
  /** The files they were compiled from (a thread that renders too compiles the same ones). */
  sources: AgreementSources
  has(variant: string): boolean
  render(variant: string, context: AgreementContext): string
}

/** Compiles agreements/ once at start-up (the browser gets the same files precompiled by Vite). */
export function loadAgreementTemplates(dir?: string): AgreementTemplates {
  return compileAgreementTemplates(readAgreementSources(dir))
}

export function compileAgreementTemplates(sources: AgreementSources): AgreementTemplates {
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
    sources,
    has: (variant) => variants.has(variant),
    render(variant, context) {
      const template = variants.get(variant)
      if (!template) throw new Error(`agreement template "${variant}" not found in agreements/`)
      return template(context)
    },
  }
}
