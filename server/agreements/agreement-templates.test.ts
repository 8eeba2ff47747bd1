import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  agreementContext,
  type AgreementAnswers,
  type AgreementContext,
} from '../../src/agreement-context.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { pngDataUrl } from '../../tests/server/support/claim-fixtures.ts'
import { loadFormConfigs } from '../forms/load-form-configs.ts'
import { AGREEMENTS_DIR, readAgreementSources } from './agreement-sources.ts'
import { loadAgreementTemplates } from './agreement-templates.ts'
import { agreementTemplatesModule } from './vite-agreements-plugin.ts'

const REPO_DIR = path.resolve(import.meta.dirname, '..', '..')
const FORMS = loadFormConfigs(path.join(REPO_DIR, 'forms'))
const TEMPLATES = loadAgreementTemplates()
const SIGNATURE = pngDataUrl()
const ANSWERS = {
  firstName: 'Ana',
  lastName: 'Lopez',
  email: 'ana.lopez@example.com',
  phoneNumber: '5552234567',
  signature: SIGNATURE,
}
const ALL_SECTIONS = Array.from({ length: 18 }, (_, i) => i + 1)

function config(slug: string): FormConfig {
  const found = FORMS.get(slug)
  if (!found) throw new Error(`no forms/${slug}.json`)
  return found
}

function contextFor(app: Pick<FormConfig, 'displayName' | 'slug'>, answers: AgreementAnswers = ANSWERS) {
  return agreementContext({ app, answers, date: '2026-11-22' })
}

/** What the claimant sees on the app's form: its variant filled in with ANSWERS. */
function renderFor(slug: string, answers?: AgreementAnswers): string {
  const app = config(slug)
  return TEMPLATES.render(app.agreement.template, contextFor(app, answers))
}

/** The numbers of the `<h3>N. Heading</h3>` sections, in order. */
function sectionNumbers(html: string): number[] {
  return [...html.matchAll(/<h3>(\d+)\. /g)].map((match) => Number(match[1]))
}

function count(html: string, pattern: RegExp): number {
  return html.match(pattern)?.length ?? 0
}

/** Only the first signing block: the second one has class "signature-block second-signature". */
const CLIENT_SIGNATURE_BLOCK = /<div class="signature-block">/g
const SECOND_SIGNATURE_BLOCK = /<div class="signature-block second-signature">/g
const ACKNOWLEDGMENT = /<h3>Acknowledgment of Representation<\/h3>/g
const SIGNATURE_IMAGE = /<img class="signature-image" src="data:image\/png;base64,[^"]+" alt="Signature">/g

/** Text as the browser reads it from HTML: the entities Handlebars writes ("=" is "&#x3D;") decoded. */
function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The words a reader sees: tags removed, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ')
}

const tempDirs: string[] = []

/** A throw-away agreements folder: a copy of the real one, or only the given files. */
function makeAgreementsDir(files?: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agreements-'))
  tempDirs.push(dir)
  if (files) {
    // the same files stand in for the Spanish ones, which every English file must have
    for (const folder of [dir, path.join(dir, 'es')]) {
      fs.mkdirSync(path.join(folder, 'partials'), { recursive: true })
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text)
    }
  } else {
    fs.cpSync(AGREEMENTS_DIR, dir, { recursive: true })
  }
  return dir
}

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

describe('the agreement each app shows', () => {
  it('knows the expected layout of every app in forms/', () => {
    expect([...FORMS.keys()].sort()).toEqual(
      [
        'albert',
        'brigit',
        'chime',
        'cleo',
        'dailypay',
        'earnin',
        'empower',
        'floatme',
        'klover',
        'moneylion',
        'super-com',
      ].sort(),
    )
  })

  it.each(['brigit', 'super-com', 'klover'])(
    '%s shows sections 1 to 18, one signature block and the Acknowledgment of Representation',
    (slug) => {
      const html = renderFor(slug)

      expect(sectionNumbers(html)).toEqual(ALL_SECTIONS)
      expect(count(html, CLIENT_SIGNATURE_BLOCK)).toBe(1)
      expect(count(html, ACKNOWLEDGMENT)).toBe(1)
      expect(count(html, SECOND_SIGNATURE_BLOCK)).toBe(0)
      expect(count(html, SIGNATURE_IMAGE)).toBe(1)
    },
  )

  it('empower shows sections 1 to 18, the acknowledgment and a second signing block', () => {
    const html = renderFor('empower')

    expect(sectionNumbers(html)).toEqual(ALL_SECTIONS)
    expect(count(html, CLIENT_SIGNATURE_BLOCK)).toBe(1)
    expect(count(html, ACKNOWLEDGMENT)).toBe(1)
    expect(count(html, SECOND_SIGNATURE_BLOCK)).toBe(1)
    expect(count(html, SIGNATURE_IMAGE)).toBe(2)
    expect(html.indexOf('<div class="signature-block second-signature">')).toBeGreaterThan(
      html.indexOf('Acknowledgment of Representation'),
    )
  })

  it('cleo shows sections 1 to 5 and a signature block, and nothing of sections 6 to 18', () => {
    const html = renderFor('cleo')

    expect(sectionNumbers(html)).toEqual([1, 2, 3, 4, 5])
    expect(count(html, CLIENT_SIGNATURE_BLOCK)).toBe(1)
    expect(count(html, SIGNATURE_IMAGE)).toBe(1)
    expect(count(html, ACKNOWLEDGMENT)).toBe(0)
    expect(count(html, SECOND_SIGNATURE_BLOCK)).toBe(0)
  })

  it('earnin shows sections 1 and 2 and a signature block', () => {
    const html = renderFor('earnin')

    expect(sectionNumbers(html)).toEqual([1, 2])
    expect(count(html, CLIENT_SIGNATURE_BLOCK)).toBe(1)
    expect(count(html, SIGNATURE_IMAGE)).toBe(1)
    expect(count(html, ACKNOWLEDGMENT)).toBe(0)
  })

  it.each(['floatme', 'moneylion'])(
    '%s shows only the title, the short intro, section 1 and a signature block',
    (slug) => {
      const html = renderFor(slug)

      expect(html).toContain('<h2 class="agreement-title">Attorney-Client Contingency Fee Agreement</h2>')
      expect(html).toContain('<p class="agreement-clause-intro">In short: ')
      expect(sectionNumbers(html)).toEqual([1])
      expect(count(html, CLIENT_SIGNATURE_BLOCK)).toBe(1)
      expect(count(html, SIGNATURE_IMAGE)).toBe(1)
      expect(count(html, ACKNOWLEDGMENT)).toBe(0)
      expect(count(html, SECOND_SIGNATURE_BLOCK)).toBe(0)
    },
  )

  it('albert shows no agreement at all', () => {
    expect(renderFor('albert')).toBe('')
  })

  it.each(['dailypay', 'chime'])(
    "%s shows the key terms with the date, the signature, the phone, the e-mail and the attorney's name",
    (slug) => {
      const html = renderFor(slug)
      const text = textOf(html)

      expect(html).toContain('<h3>Key Terms</h3>')
      expect(sectionNumbers(html)).toEqual([])
      expect(count(html, CLIENT_SIGNATURE_BLOCK)).toBe(1)
      expect(count(html, SIGNATURE_IMAGE)).toBe(1)
      expect(text).toContain('Date: November 22, 2026')
      expect(text).toContain('Phone: (555) 223-4567')
      expect(text).toContain('E-mail: ana.lopez@example.com')
      expect(text).toContain('Attorney: Jordan A. Reyes, Esq.')
    },
  )

  it("fills the signature block with the client's name, e-mail, formatted phone, date and signature", () => {
    const html = renderFor('brigit')
    const text = textOf(html)

    expect(text).toContain('Name: Ana Lopez')
    expect(text).toContain('E-mail: ana.lopez@example.com')
    expect(text).toContain('Phone: (555) 223-4567')
    expect(text).toContain('Date: November 22, 2026')
    expect(decodeEntities(html.match(/<img class="signature-image" src="([^"]+)"/)?.[1] ?? '')).toBe(
      SIGNATURE,
    )
  })

  it('shows blank lines instead of the client details while nothing is typed yet', () => {
    const html = renderFor('brigit', {})

    expect(html).not.toContain('<img')
    expect(html).toContain('<span class="blank signature-blank">Signature</span>')
    expect(textOf(html)).toContain('This agreement is between ______________ ("you" or "the client")')
  })
})

describe('the firm constants', () => {
  const FIRM_TEXTS = [
    'Cash Advance Claims Law Group',
    'Jordan A. Reyes, Esq.',
    'California and Nevada',
    '40%',
    '$50.00',
    '$1,000',
    'Los Angeles',
    '90 days',
    '5 years',
    'claims@example.com',
  ]

  it.each(FIRM_TEXTS)('the full agreement says "%s" (from firm.json)', (expected) => {
    const text = textOf(TEMPLATES.render('full', contextFor(config('brigit'))))

    expect(text).toContain(expected)
  })
})

describe('the precompiled templates of the browser bundle', () => {
  type BrowserModule = {
    TEMPLATE_VERSION: string
    templates: Record<string, (context: AgreementContext) => string>
  }
  const sources = readAgreementSources()
  let browser: BrowserModule

  beforeAll(async () => {
    // inside the repo, so 'handlebars/runtime' resolves from its node_modules; .tmp/ is gitignored
    const dir = path.join(REPO_DIR, '.tmp')
    fs.mkdirSync(dir, { recursive: true })
    const file = path.join(dir, `agreement-templates-${crypto.randomBytes(6).toString('hex')}.mjs`)
    fs.writeFileSync(file, agreementTemplatesModule(sources, 'en'))
    try {
      browser = (await import(pathToFileURL(file).href)) as BrowserModule
    } finally {
      fs.rmSync(file, { force: true })
    }
  })

  it('carry the same template version as the server', () => {
    expect(browser.TEMPLATE_VERSION).toBe(TEMPLATES.version)
  })

  it('offer exactly the variants of agreements/', () => {
    expect(Object.keys(browser.templates).sort()).toEqual(Object.keys(sources.locales.en.variants).sort())
  })

  it.each(Object.keys(sources.locales.en.variants))(
    'render "%s" byte for byte as the server does, filled in and blank',
    (variant) => {
      const filled = contextFor(config('brigit'))
      const blank = contextFor(config('brigit'), {})

      expect(browser.templates[variant]!(filled)).toBe(TEMPLATES.render(variant, filled))
      expect(browser.templates[variant]!(blank)).toBe(TEMPLATES.render(variant, blank))
    },
  )
})

describe('strict templates', () => {
  it('throws when a template refers to a variable the context lacks', () => {
    const dir = makeAgreementsDir({ 'broken.hbs': '<p>{{client.middleName}}</p>\n' })
    const templates = loadAgreementTemplates(dir)

    expect(() => templates.render('broken', contextFor(config('brigit')))).toThrow(/middleName/)
  })

  it('refuses to load when an English template has no Spanish one, naming the file', () => {
    const dir = makeAgreementsDir()
    fs.rmSync(path.join(dir, 'es', 'partials', 'section-04-fees.hbs'))

    expect(() => loadAgreementTemplates(dir)).toThrow(
      'agreements/es/partials/section-04-fees.hbs: missing (agreements/partials/section-04-fees.hbs has no es version)',
    )
  })

  it('renders the Spanish agreement with the Spanish date and list of licenses', () => {
    const context = agreementContext({
      app: config('brigit'),
      answers: { firstName: 'Łukasz', lastName: 'Nguyễn' },
      date: '2026-11-25',
      locale: 'es',
    })
    const text = textOf(TEMPLATES.render('full', context, 'es'))

    expect(text).toContain('Acuerdo de Honorarios Contingentes entre Abogado y Cliente')
    expect(text).toContain('Este acuerdo se celebra entre Łukasz Nguyễn')
    expect(text).toContain('Fecha: 25 de noviembre de 2026')
    // firm.json's licenses, California and Nevada, joined in Spanish
    expect(text).toContain('autorizado para ejercer la abogacía en California y Nevada')
  })

  it('throws when asked for a variant that agreements/ does not have', () => {
    expect(() => TEMPLATES.render('no-such-variant', contextFor(config('brigit')))).toThrow(
      /"no-such-variant" not found/,
    )
  })
})

describe('what the claimant types', () => {
  const hostile = { ...ANSWERS, firstName: '<script>alert(1)</script>', lastName: '{{firm.firmName}}' }

  it('shows a name containing a script tag as text, never as a tag', () => {
    const html = renderFor('brigit', hostile)

    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(textOf(html)).toContain('Name: <script>alert(1)</script>')
  })

  it('shows Handlebars syntax in a name literally instead of evaluating it', () => {
    const text = textOf(renderFor('brigit', hostile))

    expect(text).toContain('Name: <script>alert(1)</script> {{firm.firmName}}')
    expect(text).not.toContain('Name: <script>alert(1)</script> Cash Advance Claims Law Group')
  })
})

describe('the template version', () => {
  it('stays the same for an identical copy of agreements/', () => {
    expect(readAgreementSources(makeAgreementsDir()).version).toBe(TEMPLATES.version)
  })

  it("changes when one word of a section's text changes", () => {
    const dir = makeAgreementsDir()
    const file = path.join(dir, 'partials', 'section-04-fees.hbs')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('fee', 'charge'))

    expect(readAgreementSources(dir).version).not.toBe(TEMPLATES.version)
  })

  it("changes when a variant's text changes", () => {
    const dir = makeAgreementsDir()
    fs.appendFileSync(path.join(dir, 'full.hbs'), '<p>One more line.</p>\n')

    expect(readAgreementSources(dir).version).not.toBe(TEMPLATES.version)
  })
})
