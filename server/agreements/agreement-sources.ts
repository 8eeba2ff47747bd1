import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { LOCALES, type Locale } from '../../src/translate.ts'
import { PROJECT_ROOT } from '../project-root.ts'

export const AGREEMENTS_DIR = path.join(PROJECT_ROOT, 'agreements')
const FIRM_FILE = path.join(PROJECT_ROOT, 'firm.json')

/**
 * Handlebars must reject a reference to anything the context lacks: a blank in a contract is a defect.
 * An indented `{{> partial}}` is not re-indented line by line: HTML ignores the spaces, and splitting
 * and joining the whole agreement for them was a fifth of the server's work per claim in the render.
 */
export const TEMPLATE_OPTIONS = { strict: true, preventIndent: true } as const

/** One language's templates. */
export interface TemplateSet {
  /** partials/<name>.hbs, by name. */
  partials: Record<string, string>
  /** <name>.hbs: the variants an app's config may name. */
  variants: Record<string, string>
}

export interface AgreementSources {
  /** English in agreements/, every other language in agreements/<locale>/ under the same names. */
  locales: Record<Locale, TemplateSet>
  /** Changes whenever a template (of any language) or a firm constant changes; stored with every signed record. */
  version: string
}

/** A language whose templates do not match the English ones file for file. */
export class AgreementSourcesError extends Error {
  constructor(problems: string[]) {
    super(`agreement templates incomplete:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    this.name = 'AgreementSourcesError'
  }
}

/**
 * Reads every template of every language; the browser bundle and the server both start from these
 * same files. A language missing one of the English files (or having one English lacks) stops us.
 */
export function readAgreementSources(dir: string = AGREEMENTS_DIR): AgreementSources {
  const locales = {} as Record<Locale, TemplateSet>
  const problems: string[] = []
  for (const locale of LOCALES) {
    const folder = locale === 'en' ? dir : path.join(dir, locale)
    locales[locale] = { partials: readFolder(path.join(folder, 'partials')), variants: readFolder(folder) }
  }
  const english = locales.en
  for (const locale of LOCALES) {
    if (locale === 'en') continue
    const set = locales[locale]
    for (const [kind, sub] of [
      ['variants', ''],
      ['partials', 'partials/'],
    ] as const) {
      for (const name of Object.keys(english[kind])) {
        if (!Object.hasOwn(set[kind], name))
          problems.push(
            `agreements/${locale}/${sub}${name}.hbs: missing (agreements/${sub}${name}.hbs has no ${locale} version)`,
          )
      }
      for (const name of Object.keys(set[kind])) {
        if (!Object.hasOwn(english[kind], name))
          problems.push(`agreements/${locale}/${sub}${name}.hbs: no English agreements/${sub}${name}.hbs`)
      }
    }
  }
  if (problems.length > 0) throw new AgreementSourcesError(problems)
  const hash = crypto.createHash('sha256')
  for (const locale of LOCALES) {
    for (const [kind, files] of [
      ['partial', locales[locale].partials],
      ['variant', locales[locale].variants],
    ] as const) {
      for (const [name, source] of Object.entries(files))
        hash.update(`${locale}/${kind}:${name}\0${source}\0`)
    }
  }
  hash.update(fs.readFileSync(FIRM_FILE))
  return { locales, version: hash.digest('hex').slice(0, 16) }
}

function readFolder(folder: string): Record<string, string> {
  if (!fs.existsSync(folder)) return {}
  return Object.fromEntries(
    fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.hbs'))
      .sort()
      .map((name) => [name.slice(0, -'.hbs'.length), fs.readFileSync(path.join(folder, name), 'utf8')]),
  )
}
