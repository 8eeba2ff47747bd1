import zlib from 'node:zlib'
import fc from 'fast-check'
import { fileTypeFromBuffer } from 'file-type'
import { describe, expect, it } from 'vitest'
import { pngChunk } from '../../scripts/seed/png.ts'
import { readFixture } from '../../tests/server/support/helpers.ts'
import { PNG_SIGNATURE } from './png-image.ts'
import { isPlainPng, sniffImage } from './sniff-image.ts'

const IHDR = pngChunk('IHDR', Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]))
const IDAT = pngChunk('IDAT', zlib.deflateSync(Buffer.from([0, 255, 0, 0])))
const IEND = pngChunk('IEND', Buffer.alloc(0))
const png = (...chunks: Buffer[]) => Buffer.concat([PNG_SIGNATURE, ...chunks])

// the chunks a PNG may be made of, in any order: the walk must answer as file-type does
const CHUNKS = {
  IHDR,
  IDAT,
  IEND,
  acTL: pngChunk('acTL', Buffer.alloc(8)),
  tEXt: pngChunk('tEXt', Buffer.from('Software\0phone', 'latin1')),
  CgBI: pngChunk('CgBI', Buffer.alloc(4)),
  shortIHDR: pngChunk('IHDR', Buffer.alloc(12)),
  truncated: pngChunk('tEXt', Buffer.alloc(40)).subarray(0, 20),
  hugeLength: Buffer.from([0xff, 0xff, 0xff, 0xf0, 0x74, 0x45, 0x58, 0x74]),
}

describe('sniffImage', () => {
  it('takes a plain PNG screenshot as image/png without file-type, and refuses an animated one', async () => {
    const screenshot = readFixture('bank-statement.png')
    expect(isPlainPng(screenshot)).toBe(true)
    expect(await sniffImage(screenshot)).toEqual({ mime: 'image/png', extension: 'png' })
    // APNG (acTL before the first IDAT) is not among the image types, as before
    const animated = png(IHDR, CHUNKS.acTL, IDAT, IEND)
    expect(isPlainPng(animated)).toBe(false)
    expect(await fileTypeFromBuffer(animated)).toMatchObject({ mime: 'image/apng' })
    expect(await sniffImage(animated)).toBeUndefined()
  })

  it('says "plain PNG" only of files file-type reads as image/png', async () => {
    const names = Object.keys(CHUNKS) as (keyof typeof CHUNKS)[]
    let plain = 0
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...names), { maxLength: 6 }), async (picked) => {
        const bytes = png(...picked.map((name) => CHUNKS[name]))
        if (!isPlainPng(bytes)) return
        plain++
        expect((await fileTypeFromBuffer(bytes))?.mime).toBe('image/png')
      }),
      { numRuns: 1000 },
    )
    expect(plain).toBeGreaterThan(0)
  })
})
