import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { payoutTranslator } from './payout-texts.ts'

/** The English texts the payout files pass to t('…'), as written in their source. */
function englishTexts(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = []
  for (const file of fs.readdirSync(import.meta.dirname)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue
    const source = fs.readFileSync(path.join(import.meta.dirname, file), 'utf8')
    for (const match of source.matchAll(/\bt\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/g)) {
      const quoted = match[1]!
      found.push({
        file,
        text: quoted.startsWith("'") ? quoted.slice(1, -1).replace(/\\'/g, "'") : JSON.parse(quoted),
      })
    }
  }
  return found
}

describe('payoutTranslator', () => {
  it('has a Spanish text for every text of the explanation and the statement', () => {
    const texts = englishTexts()
    expect(texts.length).toBeGreaterThan(20)
    const es = payoutTranslator('es')
    const untranslated = texts.filter(({ text }) => es(text) === text && !/^(PayPal|Venmo) /.test(text))
    expect(untranslated).toEqual([])
  })

  it('leaves English as written', () => {
    expect(payoutTranslator('en')('Net to you')).toBe('Net to you')
    expect(payoutTranslator('es')('Net to you')).toBe('Neto para usted')
  })
})
