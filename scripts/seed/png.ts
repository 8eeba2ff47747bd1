import crypto from 'node:crypto'
import zlib from 'node:zlib'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const COLOUR_TYPE = { rgb: 2, rgba: 6 } as const

/** One PNG chunk: its length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}

/** A real 8-bit PNG from raw scanlines (each row: filter byte 0, then its pixels). */
export function encodePng({
  width,
  height,
  colour,
  scanlines,
}: {
  width: number
  height: number
  colour: keyof typeof COLOUR_TYPE
  scanlines: Buffer
}): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = COLOUR_TYPE[colour]
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(scanlines)),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/**
 * A real RGB PNG with a few coloured stripes, so it looks like something.
 * @example makePng({ width: 200, height: 100 }).subarray(1, 4).toString() // 'PNG'
 */
export function makePng({ width = 1, height = 1 }: { width?: number; height?: number } = {}): Buffer {
  const rowLength = 1 + width * 3
  const scanlines = Buffer.alloc(rowLength * height)
  for (let y = 0; y < height; y++) {
    const row = y * rowLength // filter byte 0 (none) stays at scanlines[row]
    for (let x = 0; x < width; x++) {
      const stripe = Math.floor((x / Math.max(width, 1)) * 4)
      scanlines[row + 1 + x * 3] = stripe === 0 ? 0x1d : 0xf0
      scanlines[row + 2 + x * 3] = stripe === 1 ? 0x4e : 0xf0
      scanlines[row + 3 + x * 3] = stripe === 2 ? 0xd8 : (y * 255) / Math.max(height - 1, 1)
    }
  }
  return encodePng({ width, height, colour: 'rgb', scanlines })
}

/**
 * An RGB PNG of random pixels, about `bytes` long: noise does not compress, so the file is as big as a
 * phone's bank-statement screenshot without being mostly zeros.
 */
export function makeNoisePng(bytes = 200 * 1024): Buffer {
  const side = Math.ceil(Math.sqrt(bytes / 3))
  const scanlines = crypto.randomBytes(side * (1 + side * 3))
  for (let y = 0; y < side; y++) scanlines[y * (1 + side * 3)] = 0
  return encodePng({ width: side, height: side, colour: 'rgb', scanlines })
}

/**
 * A signature as signature_pad draws it: a transparent canvas with one dark, wavy stroke. The same
 * data URL is shared by every seeded claim.
 */
export function makeSignaturePng({ width = 400, height = 120 } = {}): Buffer {
  const row = 1 + width * 4
  const scanlines = Buffer.alloc(row * height)
  const ink = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return
    const at = y * row + 1 + x * 4
    scanlines.writeUInt32BE(0x1a1a40ff, at)
  }
  for (let x = 20; x < width - 20; x++) {
    const t = x / width
    const y = Math.round(height / 2 + Math.sin(t * 19) * height * 0.22 + Math.cos(t * 47) * height * 0.08)
    for (let dy = -2; dy <= 2; dy++) for (let dx = -1; dx <= 1; dx++) ink(x + dx, y + dy)
  }
  return encodePng({ width, height, colour: 'rgba', scanlines })
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`
}
