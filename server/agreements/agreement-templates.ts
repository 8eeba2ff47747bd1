import Handlebars from 'handlebars'
import type { AgreementContext } from '../../src/agreement-context.ts'
import { LOCALES, type Locale } from '../../src/translate.ts'
import { readAgreementSources, TEMPLATE_OPTIONS, type AgreementSources } from './agreement-sources.ts'

export interface AgreementTemplates {
  version: string
  /** The files they were compiled from (a thread that renders too compiles the same ones). */
  sources: AgreementSources
  has(variant: string): boolean
  render(variant: string, context: AgreementContext, locale?: Locale): string
}

/** Compiles agreements/ once at start-up (the browser gets the same files precompiled by Vite). */
export function loadAgreementTemplates(dir?: string): AgreementTemplates {
  return compileAgreementTemplates(readAgreementSources(dir))
}

export function compileAgreementTemplates(sources: AgreementSources): AgreementTemplates {
  const byLocale = new Map(
    LOCALES.map((locale) => {
      // each language its own instance: the partials of both share their names
      const handlebars = Handlebars.create()
      const set = sources.locales[locale]
      for (const [name, source] of Object.entries(set.partials)) {
        handlebars.registerPartial(name, handlebars.compile(source, TEMPLATE_OPTIONS))
      }
      const variants = new Map(
        Object.entries(set.variants).map(([name, source]) => [
          name,
          handlebars.compile(source, TEMPLATE_OPTIONS),
        ]),
      )
      return [locale, variants] as const
    }),
  )
  return {
    version: sources.version,
    sources,
    has: (variant) => byLocale.get('en')!.has(variant),
    render(variant, context, locale = 'en') {
      const template = byLocale.get(locale)?.get(variant)
      if (!template)
        throw new Error(
          `agreement template "${variant}" not found in agreements/${locale === 'en' ? '' : `${locale}/`}`,
        )
      return template(context)
    },
  }
}
