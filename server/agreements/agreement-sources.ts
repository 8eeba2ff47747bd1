import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

export const AGREEMENTS_DIR = path.resolve(import.meta.dirname, '..', '..', 'agreements')
const FIRM_FILE = path.resolve(import.meta.dirname, '..', '..', 'firm.json')

/**
 * Handlebars must reject a reference to anything the context lacks: a blank in a contract is a defect.
 * An indented `{{> partial}}` is not re-indented line by line: HTML ignores the spaces, and splitting
 * and joining the whole agreement for them was a fifth of the server's work per claim in the render.
 */
export const TEMPLATE_OPTIONS = { strict: true, preventIndent: true } as const

export interface AgreementSources {
  /** agreements/partials/<name>.hbs, by name. */
  partials: Record<string, string>
  /** agreements/<name>.hbs: the variants an app's config may name. */
  variants: Record<string, string>
  /** Changes whenever a template or a firm constant changes; stored with every signed record. */
  version: string
}

/** Reads every template; the browser bundle and the server both start from these same files. */
export function readAgreementSources(dir: string = AGREEMENTS_DIR): AgreementSources {
  const read = (folder: string) =>
    Object.fromEntries(
      fs
        .readdirSync(folder)
        .filter((name) => name.endsWith('.hbs'))
        .sort()
        .map((name) => [name.slice(0, -'.hbs'.length), fs.readFileSync(path.join(folder, name), 'utf8')]),
    )
  const partials = read(path.join(dir, 'partials'))
  const variants = read(dir)
  const hash = crypto.createHash('sha256')
  for (const [kind, files] of [
    ['partial', partials],
    ['variant', variants],
  ] as const) {
    for (const [name, source] of Object.entries(files)) hash.update(`${kind}:${name}\0${source}\0`)
  }
  hash.update(fs.readFileSync(FIRM_FILE))
  return { partials, variants, version: hash.digest('hex').slice(0, 16) }
}
