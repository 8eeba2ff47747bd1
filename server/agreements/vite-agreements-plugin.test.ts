import { describe, expect, it } from 'vitest'
import { readAgreementSources, type AgreementSources } from './agreement-sources.ts'
import { agreementVariantsModule } from './vite-agreements-plugin.ts'

function makeSources(variants: Record<'en' | 'es', Record<string, string>>): AgreementSources {
  return {
    locales: {
      en: { partials: {}, variants: variants.en },
      es: { partials: {}, variants: variants.es },
    },
    version: 'test',
  }
}

describe('agreementVariantsModule', () => {
  it('names the agreements/ variants that are blank in every language', () => {
    expect(agreementVariantsModule(readAgreementSources())).toBe('export const BLANK_VARIANTS = ["none"]')
  })

  it('leaves out a variant that has text in any language', () => {
    const sources = makeSources({
      en: { none: '\n', draft: '', full: '<article></article>' },
      es: { none: '', draft: '<article>borrador</article>', full: '<article></article>' },
    })
    expect(agreementVariantsModule(sources)).toBe('export const BLANK_VARIANTS = ["none"]')
  })
})
