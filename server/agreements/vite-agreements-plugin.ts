import Handlebars from 'handlebars'
import type { Plugin } from 'vite'
import { parseLocale, type Locale } from '../../src/translate.ts'
import {
  AGREEMENTS_DIR,
  readAgreementSources,
  TEMPLATE_OPTIONS,
  type AgreementSources,
} from './agreement-sources.ts'

const MODULE_PREFIX = 'virtual:agreement-templates/'
const RESOLVED_PREFIX = `\0${MODULE_PREFIX}`
const VARIANTS_MODULE = 'virtual:agreement-variants'

/**
 * Serves `virtual:agreement-templates/<locale>`: one language's agreement templates precompiled, so
 * the browser runs Handlebars' small runtime and never compiles a template (no eval under the page's
 * CSP). One module per language: a page downloads only its own language's agreement. And
 * `virtual:agreement-variants`, the few bytes a page needs before the templates arrive.
 */
export function agreementTemplatesPlugin(): Plugin {
  return {
    name: 'agreement-templates',
    resolveId: (id) =>
      id === VARIANTS_MODULE || (id.startsWith(MODULE_PREFIX) && parseLocale(id.slice(MODULE_PREFIX.length)))
        ? `\0${id}`
        : undefined,
    load(id) {
      if (id === `\0${VARIANTS_MODULE}`) {
        this.addWatchFile(AGREEMENTS_DIR)
        return agreementVariantsModule(readAgreementSources())
      }
      if (!id.startsWith(RESOLVED_PREFIX)) return undefined
      this.addWatchFile(AGREEMENTS_DIR)
      const locale = parseLocale(id.slice(RESOLVED_PREFIX.length))
      return locale ? agreementTemplatesModule(readAgreementSources(), locale) : undefined
    },
  }
}

/**
 * The variants whose file is blank in every language (`none`): an app naming one shows no agreement,
 * so the page keeps no room for it while the templates load.
 */
export function agreementVariantsModule(sources: AgreementSources): string {
  const sets = Object.values(sources.locales)
  const blank = Object.keys(sources.locales.en.variants).filter((name) =>
    sets.every((set) => set.variants[name]?.trim() === ''),
  )
  return `export const BLANK_VARIANTS = ${JSON.stringify(blank)}`
}

/** The module's code: one precompiled template per partial and variant of the language. */
export function agreementTemplatesModule(sources: AgreementSources, locale: Locale): string {
  const precompile = (source: string) => Handlebars.precompile(source, TEMPLATE_OPTIONS) as string
  const set = sources.locales[locale]
  const partials = Object.entries(set.partials)
    .map(
      ([name, source]) =>
        `handlebars.registerPartial(${JSON.stringify(name)}, handlebars.template(${precompile(source)}))`,
    )
    .join('\n')
  const variants = Object.entries(set.variants)
    .map(([name, source]) => `  ${JSON.stringify(name)}: handlebars.template(${precompile(source)}),`)
    .join('\n')
  return [
    "import Handlebars from 'handlebars/runtime'",
    'const handlebars = Handlebars.create()',
    partials,
    `export const TEMPLATE_VERSION = ${JSON.stringify(sources.version)}`,
    `export const templates = {\n${variants}\n}`,
  ].join('\n')
}
