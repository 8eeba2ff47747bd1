import zlib from 'node:zlib'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { makePng, pngChunk } from '../../scripts/seed/png.ts'
import { bankScreenshot, encodeJpegImage } from '../../tests/server/support/bank-screenshots.ts'
import { hugeFrameJpeg, interlacedZerosPng, secondHeaderPng } from '../../tests/server/support/image-bombs.ts'
import { isJpegWithinLimits, isPngWithinLimits } from './image-limits.ts'
import { inflatedPngSize, PNG_SIGNATURE, readPngImage } from './png-image.ts'

/** An 8-bit PNG of the given colour type, interlaced or not, whose image data is `inflated` zero bytes. */
function zerosPng({
  width,
  height,
  colourType = 2,
  interlaced = false,
  inflated,
}: {
  width: number
  height: number
  colourType?: number
  interlaced?: boolean
  inflated: number
}): Buffer {
  const header = Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 8, colourType, 0, 0, interlaced ? 1 : 0])
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(inflated))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

const JPEG = encodeJpegImage(bankScreenshot({ seed: 2, width: 40, height: 80 }), 80)

describe('inflatedPngSize', () => {
  it('is what an encoder writes for a plain PNG', () => {
    const png = makePng({ width: 37, height: 11 })
    const { header, data } = readPngImage(png)!
    expect(inflatedPngSize(header)).toBe(zlib.inflateSync(data).length)
  })

  it('counts the filtered rows of each Adam7 pass, leaving out empty ones, exactly as pngjs reads them', () => {
    // 5 × 3 RGB: passes of 1×1, 1×1, none, 1×1, 3×1, 2×2 and 5×1 pixels, each row a filter byte more
    const size = 4 + 4 + 4 + 10 + 2 * 7 + 16
    const { header } = readPngImage(zerosPng({ width: 5, height: 3, interlaced: true, inflated: size }))!
    expect(inflatedPngSize(header)).toBe(size)
    expect(PNG.sync.read(zerosPng({ width: 5, height: 3, interlaced: true, inflated: size }))).toMatchObject({
      width: 5,
      height: 3,
    })
    expect(() =>
      PNG.sync.read(zerosPng({ width: 5, height: 3, interlaced: true, inflated: size + 1 })),
    ).toThrow()
  })
})

describe('isPngWithinLimits', () => {
  it('takes a PNG whose data inflates to its rows', () => {
    expect(isPngWithinLimits(makePng({ width: 300, height: 200 }))).toBe(true)
    expect(isPngWithinLimits(zerosPng({ width: 5, height: 3, interlaced: true, inflated: 52 }))).toBe(true)
  })

  it('refuses a PNG whose data inflates past its rows, interlaced or not', () => {
    expect(isPngWithinLimits(interlacedZerosPng(64 * 1024 * 1024))).toBe(false)
    expect(isPngWithinLimits(zerosPng({ width: 10, height: 10, inflated: 10 * 31 + 4096 }))).toBe(false)
  })

  it('refuses a second IHDR, and an IHDR that is not the first chunk', () => {
    expect(isPngWithinLimits(secondHeaderPng())).toBe(false)
    const png = makePng({ width: 4, height: 4 })
    const text = pngChunk('tEXt', Buffer.from('a\0b', 'latin1'))
    expect(isPngWithinLimits(Buffer.concat([PNG_SIGNATURE, text, png.subarray(8)]))).toBe(false)
  })

  it('refuses more than 25 MP by the header, and a bit depth its colour type does not have', () => {
    expect(isPngWithinLimits(zerosPng({ width: 5001, height: 5000, colourType: 0, inflated: 10 }))).toBe(
      false,
    )
    expect(isPngWithinLimits(zerosPng({ width: 5000, height: 5000, colourType: 0, inflated: 10 }))).toBe(true)
    const fourBitRgb = zerosPng({ width: 4, height: 4, inflated: 4 * 7 })
    fourBitRgb[24] = 4
    expect(isPngWithinLimits(fourBitRgb)).toBe(false)
  })
})

describe('isJpegWithinLimits', () => {
  it('takes a JPEG within 25 MP by its frame header', () => {
    expect(isJpegWithinLimits(JPEG)).toBe(true)
  })

  it('refuses a frame header over 25 MP, or of height 0', () => {
    expect(isJpegWithinLimits(hugeFrameJpeg())).toBe(false)
    const noHeight = Buffer.from(JPEG)
    const sof = findMarker(noHeight, 0xc0)
    noHeight.writeUInt16BE(0, sof + 5)
    expect(isJpegWithinLimits(noHeight)).toBe(false)
  })

  it('refuses a JPEG with no frame header', () => {
    const start = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10])
    const jfif = Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')
    expect(isJpegWithinLimits(Buffer.concat([start, jfif, Buffer.from([0xff, 0xd9])]))).toBe(false)
  })

  it('reads every frame header, and none hidden in another segment', () => {
    const sof = findMarker(JPEG, 0xc0)
    const frame = JPEG.subarray(sof, sof + 2 + JPEG.readUInt16BE(sof + 2))
    const huge = Buffer.from(frame)
    huge.writeUInt16BE(6000, 5)
    huge.writeUInt16BE(6000, 7)
    // a second, huge frame header after the first
    expect(
      isJpegWithinLimits(
        Buffer.concat([JPEG.subarray(0, sof), frame, huge, JPEG.subarray(sof + frame.length)]),
      ),
    ).toBe(false)
    // the same bytes inside an APP1 segment (where a thumbnail's would be) are no frame header
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, huge.length + 2]), huge])
    expect(isJpegWithinLimits(Buffer.concat([JPEG.subarray(0, 2), app1, JPEG.subarray(2)]))).toBe(true)
  })
})

/** Where a marker's segment starts, walking segments from SOI. */
function findMarker(jpeg: Buffer, marker: number): number {
  for (let at = 2; at + 4 <= jpeg.length; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at + 1] === marker) return at
  }
  throw new Error(`no marker ${marker.toString(16)}`)
}
