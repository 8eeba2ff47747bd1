import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import * as claimMessages from '../../src/claim-messages.ts'
import * as confirmationMessages from '../../src/confirmation-messages.ts'
import * as cureMessages from '../../src/api/cure.ts'
import * as journeyMessages from '../../src/api/journey.ts'
import * as lookupMessages from '../../src/lookup-messages.ts'
import { loadFormConfigs } from './load-form-configs.ts'
import { loadIntakeConfig } from './load-intake-config.ts'
import * as intakeMessages from '../intake/create-intake.ts'
import { loadLanguages } from './languages.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..')
const FORMS_DIR = path.join(ROOT, 'forms')
const languages = loadLanguages({
  formsDir: FORMS_DIR,
  forms: loadFormConfigs(FORMS_DIR),
  intake: loadIntakeConfig(FORMS_DIR),
})
const spanish = languages.browserTexts('es')

/** Staff pages are in English only. */
const ENGLISH_ONLY = [/^client\/staff\//, /^client\/routes\/(admin|military)-route\.tsx$/]

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`
    if (entry.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(entry.name) && !ENGLISH_ONLY.some((rule) => rule.test(file)) ? [file] : []
  })
}

/** The English texts a page passes to t('…') or shows as a <Loading label="…">. */
function pageTexts(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = []
  const literal = String.raw`('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\`[^\`$]*\`)`
  const patterns = [
    new RegExp(String.raw`\bt\(\s*${literal}`, 'g'),
    new RegExp(`<Loading label=${literal}`, 'g'),
  ]
  for (const file of sourceFiles('client')) {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
    for (const pattern of patterns) {
      for (const match of source.matchAll(pattern)) {
        const quoted = match[1]!
        const text = quoted.startsWith('`')
          ? quoted.slice(1, -1)
          : (JSON.parse(
              quoted.startsWith("'") ? `"${quoted.slice(1, -1).replace(/"/g, '\\"')}"` : quoted,
            ) as string)
        found.push({ file, text })
      }
    }
  }
  return found
}

/** The server's messages a claimant can read, as exported beside the code that sends them. */
function serverMessages(): string[] {
  return [
    claimMessages,
    lookupMessages,
    intakeMessages,
    confirmationMessages,
    cureMessages,
    journeyMessages,
  ].flatMap((module) =>
    Object.entries(module)
      .filter(([name, value]) => /_(MESSAGE|TEXT)$/.test(name) && typeof value === 'string')
      .map(([, value]) => value as string),
  )
}

const slotsOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort()

describe('the Spanish texts of the pages (forms/es/ui/*.json)', () => {
  it('translate every text a claimant page shows', () => {
    const texts = pageTexts()
    expect(texts.length).toBeGreaterThan(20)
    const missing = texts.filter(({ text }) => !Object.hasOwn(spanish, text))
    expect(missing).toEqual([])
  })

  it("translate every message of the server's that a claimant can read", () => {
    expect(serverMessages().filter((message) => !Object.hasOwn(spanish, message))).toEqual([])
  })

  it('keep every {slot} of the English text, so no value is lost in Spanish', () => {
    const broken = Object.entries(spanish).filter(
      ([english, text]) => slotsOf(english).join() !== slotsOf(text).join(),
    )
    expect(broken).toEqual([])
  })
})
