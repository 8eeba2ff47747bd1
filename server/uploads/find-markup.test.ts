import crypto from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findsMarkup, MARKUP_PATTERN } from './find-markup.ts'

const bytes = (text: string) => Buffer.from(text, 'latin1')
const byRegex = (data: Uint8Array) => MARKUP_PATTERN.test(Buffer.from(data).toString('latin1'))

// pieces markup is made of, in both cases, with the bytes that end or break a tag
const PIECES = [
  '<',
  '>',
  '/',
  '"',
  "'",
  '=',
  ':',
  ' ',
  '\t',
  '\n',
  '\f',
  '\r',
  '\v',
  '\x00',
  '\x1f',
  '\x7f',
  '\x80',
  '\xff',
  'script',
  'SCRIPT',
  'sCrIpT',
  'iframe',
  'object',
  'embed',
  'applet',
  'html',
  'HTML',
  '!doctype',
  '!DOCTYPE',
  'svg',
  'img',
  'a',
  'x-1',
  'on',
  'ON',
  'oN',
  'onload',
  'ONERROR',
  'onx',
  'onxy',
  'load',
  'javascript',
  'JavaScript',
  'javascrip',
  'java',
  'script:',
  '-',
  '9',
  'z',
  'Z',
  '\xe9',
]
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PIECES) },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ minLength: 1, maxLength: 4 }).map((b) => Buffer.from(b).toString('latin1')),
  },
  // runs around the 200-byte limit between a tag name and its handler
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', ' ', '\x80', '9'), fc.integer({ min: 195, max: 205 }))
      .map(([c, n]) => c.repeat(n)),
  },
)
// a tag with a handler, each part sometimes just wrong: the gap around 200 bytes, the separator, `on`, `=`
const handlerTag = fc
  .tuple(
    fc.constantFrom('svg', 'a', 'X-1', 'S', '', '1'),
    fc.constantFrom('a', ' ', '\x80', '9', '=', '\x7f', '<', '>', '\v'),
    fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 190, max: 210 })),
    fc.constantFrom(' ', '/', '"', "'", '\t', '\n', '\f', '\r', '\v', 'x', '='),
    fc.constantFrom('on', 'ON', 'oN', 'o', 'no'),
    fc.constantFrom('', 'l', 'lo', 'loa', 'load', 'LOAD9'),
    fc.constantFrom('', ' ', '\t\n', '\v'),
    fc.constantFrom('=', 'x', ''),
  )
  .map(([name, fill, gap, separator, on, event, space, equals]) =>
    ['<', name, fill.repeat(gap), separator, on, event, space, equals].join(''),
  )
const text = fc
  .array(fc.oneof({ weight: 3, arbitrary: piece }, { weight: 1, arbitrary: handlerTag }), { maxLength: 40 })
  .map((parts) => parts.join(''))

describe('findsMarkup', () => {
  it('finds the payloads of known polyglots, in any case', () => {
    for (const payload of [
      '<script>alert(1)</script>',
      '<SCRIPT SRC=//x>',
      '<iframe/src=x>',
      '<!DOCTYPE html>',
      '<svg onload=alert(1)>',
      '<img src=x onerror  =alert(1)>',
      `<a href="x" ${'b'.repeat(150)} onclick="go()">`,
      '<a href="JavaScript:alert(1)">',
      'url(javascript:go)',
    ]) {
      const polyglot = Buffer.concat([
        crypto.randomBytes(64).map((b) => (b === 0x3c ? 0 : b)),
        bytes(payload),
      ])
      expect(findsMarkup(polyglot), payload).toBe(true)
    }
  })

  it('passes text with no markup that runs', () => {
    for (const text of [
      'a < b and c > d',
      '<b>bold</b>',
      '<p class="x">',
      'on load = yes',
      '<scripts>',
      'java script:',
    ]) {
      expect(findsMarkup(bytes(text)), text).toBe(false)
    }
  })

  it('holds an event handler only within 200 bytes of its tag name', () => {
    expect(findsMarkup(bytes(`<svg${' '.repeat(200)} onload=x>`))).toBe(true)
    expect(findsMarkup(bytes(`<svg${' '.repeat(201)} onload=x>`))).toBe(false)
    expect(findsMarkup(bytes(`<${'s'.repeat(5000)} onload=x>`))).toBe(true)
  })

  it('answers as the regular expression over Latin-1 does, for any bytes', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const data = bytes(sample)
        expect(findsMarkup(data)).toBe(byRegex(data))
      }),
      { numRuns: 20_000 },
    )
  })

  it('answers as the regular expression does for random screenshots', () => {
    for (let i = 0; i < 50; i++) {
      const data = crypto.randomBytes(256 * 1024)
      expect(findsMarkup(data)).toBe(byRegex(data))
    }
  })
})
