import Handlebars from 'handlebars'
import type { Plugin } from 'vite'
import {
  AGREEMENTS_DIR,
  readAgreementSources,
  TEMPLATE_OPTIONS,
  type AgreementSources,
} from './agreement-sources.ts'

const MODULE_ID = 'virtual:agreement-templates'
const RESOLVED_ID = `\0${MODULE_ID}`

/**
 * Serves `virtual:agreement-templates`: every agreement template precompiled, so the browser runs
 * Handlebars' small runtime and never compiles a template (no eval under the page's CSP).
 */
export function agreementTemplatesPlugin(): Plugin {
  return {
    name: 'agreement-templates',
    resolveId: (id) => (id === MODULE_ID ? RESOLVED_ID : undefined),
    load(id) {
      if (id !== RESOLVED_ID) return undefined
      this.addWatchFile(AGREEMENTS_DIR)
      return agreementTemplatesModule(readAgreementSources())
    },
  }
}

/** The module's code: one precompiled template per partial and variant. */
export function agreementTemplatesModule(sources: AgreementSources): string {
  const precompile = (source: string) => Handlebars.precompile(source, TEMPLATE_OPTIONS) as string
  const partials = Object.entries(sources.partials)
    .map(
      ([name, source]) =>
        `handlebars.registerPartial(${JSON.stringify(name)}, handlebars.template(${precompile(source)}))`,
    )
    .join('\n')
  const variants = Object.entries(sources.variants)
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
