import { describe, expect, it } from 'vitest'
import { canonicalJson } from './canonical-json.ts'

describe('canonicalJson', () => {
  it('orders every object by key and writes no white space, whatever order the object was built in', () => {
    expect(canonicalJson({ b: 1, a: ['x', null, { d: true, c: 'é' }] })).toBe(
      '{"a":["x",null,{"c":"é","d":true}],"b":1}',
    )
    expect(canonicalJson({ a: 1, b: 1 })).toBe(canonicalJson({ b: 1, a: 1 }))
  })

  it('escapes strings as JSON does, so the text parses back to the same value', () => {
    const value = { text: 'line\nbreak "quoted" \u2028 \ud83d\ude00' }
    expect(JSON.parse(canonicalJson(value))).toEqual(value)
  })

  it('refuses what has no single writing: fractions and missing values', () => {
    expect(() => canonicalJson({ n: 1.5 })).toThrow('a sealed value must be a whole number, not 1.5')
    expect(() => canonicalJson({ gone: undefined } as never)).toThrow('sealed field "gone" has no value')
  })
})
