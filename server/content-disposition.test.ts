import { describe, expect, it } from 'vitest'
import { asciiFileName, contentDisposition, mimeContentDisposition } from './content-disposition.ts'

/** The name a reader of RFC 2231 puts together from `filename*=` or its `filename*N*=` sections. */
function encodedName(disposition: string): string {
  const sections = [...disposition.matchAll(/filename\*(?:\d+\*)?=(?:UTF-8'')?([^;\s]+)/g)]
  return decodeURIComponent(sections.map((match) => match[1]).join(''))
}

describe('asciiFileName', () => {
  it('drops the accents and keeps the letters', () => {
    expect(asciiFileName('José-Peña-Núñez-agreement.pdf')).toBe('Jose-Pena-Nunez-agreement.pdf')
  })

  it('makes any other character a dash, with none left at the ends or before the extension', () => {
    expect(asciiFileName('Иван Петров-agreement.pdf')).toBe('agreement.pdf')
    expect(asciiFileName('Zoë O’Brien ♥.html')).toBe('Zoe-O-Brien.html')
    expect(asciiFileName('日本')).toBe('file')
  })
})

describe('contentDisposition', () => {
  it('gives the name in UTF-8 after its ASCII fallback', () => {
    expect(contentDisposition('José-Peña-Núñez-agreement.pdf')).toBe(
      `attachment; filename="Jose-Pena-Nunez-agreement.pdf"; filename*=UTF-8''Jos%C3%A9-Pe%C3%B1a-N%C3%BA%C3%B1ez-agreement.pdf`,
    )
  })

  it('gives only the plain name when it is ASCII already', () => {
    expect(contentDisposition('Ana-Lopez-agreement.html')).toBe(
      'attachment; filename="Ana-Lopez-agreement.html"',
    )
  })

  it('percent-encodes what RFC 5987 does not allow bare, and a decomposed accent as the composed one', () => {
    expect(contentDisposition("O'Neil (1)*.pdf")).toContain(`filename*=UTF-8''O%27Neil%20%281%29%2A.pdf`)
    expect(contentDisposition('Jose\u0301.pdf')).toContain(`filename*=UTF-8''Jos%C3%A9.pdf`)
  })
})

describe('mimeContentDisposition', () => {
  it('puts each parameter on a line of its own', () => {
    expect(mimeContentDisposition('José-agreement.pdf')).toBe(
      `attachment;\r\n filename="Jose-agreement.pdf";\r\n filename*=UTF-8''Jos%C3%A9-agreement.pdf`,
    )
  })

  it('cuts a name too long for one header line into RFC 2231 sections, never inside a %XX', () => {
    const name = `${'Жанна'.repeat(40)} ${'Østergård'.repeat(20)}-agreement.pdf`
    const disposition = mimeContentDisposition(name)
    const lines = disposition.split('\r\n')
    // the ASCII fallback stays whole: RFC 5322's limit is 998 characters a line
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(998)
    expect(Math.max(...lines.slice(2).map((line) => line.length))).toBeLessThan(100)
    expect(lines[2]).toMatch(/^ filename\*0\*=UTF-8''%/)
    expect(lines.slice(3).every((line) => /^ filename\*\d+\*=[^%]*(%[0-9A-F]{2}[^%]*)*;?$/.test(line))).toBe(
      true,
    )
    expect(encodedName(disposition)).toBe(name)
  })
})
