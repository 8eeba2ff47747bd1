import { describe, expect, it } from 'vitest'
import { screenshotType } from './screenshot-type.ts'

const bytes = (...values: number[]) => new Uint8Array(values)

describe('screenshotType', () => {
  it('knows a PNG by its eight-byte signature and a JPEG by FF D8 FF', () => {
    expect(screenshotType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png')
    expect(screenshotType(bytes(0xff, 0xd8, 0xff, 0xdb))).toBe('image/jpeg')
  })

  it('knows nothing else: a GIF, a PDF, markup, a cut PNG signature, an empty file', () => {
    expect(screenshotType(new TextEncoder().encode('GIF89a'))).toBeUndefined()
    expect(screenshotType(new TextEncoder().encode('%PDF-1.4'))).toBeUndefined()
    expect(screenshotType(new TextEncoder().encode('<svg xmlns'))).toBeUndefined()
    expect(screenshotType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeUndefined()
    expect(screenshotType(bytes())).toBeUndefined()
  })
})
