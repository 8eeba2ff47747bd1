import zlib from 'node:zlib'

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const IHDR_LENGTH = 13
// the bit depths PNG allows for each colour type, and the channels of each
const BIT_DEPTHS: Record<number, readonly number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
}
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
/** [x0, y0, dx, dy] of the scans a decoder walks: the seven Adam7 passes, or one pass for a plain image. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const
const ONE_PASS = [[0, 0, 1, 1]] as const
/**
 * Inflated bytes past the header's rows still taken: decoders ignore them (pngjs stops at the rows), and an
 * encoder may leave a few. Far less than would cost anything.
 */
export const INFLATED_SLACK_BYTES = 1024
const INFLATE_CHUNK_BYTES = 1024 * 1024

/** Whether the bytes start as a PNG does (the signature alone, not its content). */
export function isPng(bytes: Uint8Array): boolean {
  return bytes.length > PNG_SIGNATURE.length && PNG_SIGNATURE.equals(bytes.subarray(0, PNG_SIGNATURE.length))
}

export interface PngChunk {
  type: string
  /** The length the chunk declares. */
  length: number
  /** The chunk's data, or as much of it as the file holds. */
  body: Buffer
  /** Whether its data and CRC are all in the file. */
  complete: boolean
}

/** The chunks after the signature, in file order, until fewer than a chunk header's 8 bytes are left. */
export function* pngChunks(bytes: Buffer): Generator<PngChunk> {
  for (let at = PNG_SIGNATURE.length; at + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(at)
    const type = bytes.toString('latin1', at + 4, at + 8)
    yield {
      type,
      length,
      body: bytes.subarray(at + 8, at + 8 + length),
      complete: at + 12 + length <= bytes.length,
    }
    at += 12 + length
  }
}

export interface PngHeader {
  width: number
  height: number
  bitDepth: number
  colourType: number
  bitsPerPixel: number
  isInterlaced: boolean
}

/** What a decoder reads of a PNG: its one header, and its image data (the IDAT chunks before IEND). */
export interface PngImage {
  header: PngHeader
  /** The IDAT chunks' data joined: one zlib stream. */
  data: Buffer
  /** Whether every chunk up to and including IEND is whole in the file. */
  isComplete: boolean
}

/**
 * The header and image data of a PNG, or undefined unless its first chunk is its one IHDR, whole, of a
 * size, colour type and bit depth PNG defines. Decoders disagree on a second IHDR (png-js and our checks
 * read the first, pngjs the last), so a file with two is no PNG to any of them here.
 */
export function readPngImage(bytes: Buffer): PngImage | undefined {
  if (!isPng(bytes)) return undefined
  let header: PngHeader | undefined
  const data: Buffer[] = []
  let isComplete = false
  let allWhole = true
  for (const { type, length, body, complete } of pngChunks(bytes)) {
    if (type === 'IHDR') {
      if (header || !complete || length !== IHDR_LENGTH) return undefined
      header = parseHeader(body)
      if (!header) return undefined
      continue
    }
    if (!header) return undefined
    allWhole &&= complete
    if (type === 'IEND') {
      isComplete = allWhole
      break
    }
    if (type === 'IDAT') data.push(body)
  }
  if (!header) return undefined
  return { header, data: data.length === 1 ? data[0]! : Buffer.concat(data), isComplete }
}

function parseHeader(body: Buffer): PngHeader | undefined {
  const width = body.readUInt32BE(0)
  const height = body.readUInt32BE(4)
  const [bitDepth = 0, colourType = -1, compression, filter, interlace] = body.subarray(8, 13)
  const isDefined =
    width > 0 &&
    height > 0 &&
    width <= 0x7fffffff &&
    height <= 0x7fffffff &&
    (BIT_DEPTHS[colourType]?.includes(bitDepth) ?? false) &&
    compression === 0 &&
    filter === 0 &&
    (interlace === 0 || interlace === 1)
  if (!isDefined) return undefined
  return {
    width,
    height,
    bitDepth,
    colourType,
    bitsPerPixel: CHANNELS[colourType]! * bitDepth,
    isInterlaced: interlace === 1,
  }
}

/** Each scan a decoder walks: its rows and the bytes of each, filter byte included; empty passes left out. */
export function pngScans({
  width,
  height,
  bitsPerPixel,
  isInterlaced,
}: PngHeader): { rows: number; rowBytes: number }[] {
  const scans: { rows: number; rowBytes: number }[] = []
  for (const [x0, y0, dx, dy] of isInterlaced ? ADAM7 : ONE_PASS) {
    const columns = Math.ceil((width - x0) / dx)
    const rows = Math.ceil((height - y0) / dy)
    if (columns > 0 && rows > 0) scans.push({ rows, rowBytes: 1 + Math.ceil((columns * bitsPerPixel) / 8) })
  }
  return scans
}

/** The exact size of the image data inflated (every scan's filtered rows): what the header allows. */
export function inflatedPngSize(header: PngHeader): number {
  return pngScans(header).reduce((size, { rows, rowBytes }) => size + rows * rowBytes, 0)
}

/**
 * The image data inflated, never past `maxBytes`: 'too-large' as soon as it would be, 'broken' when the
 * stream is not zlib or ends early. zlib stops at the bound, so a file that only claims to be large, or
 * holds gigabytes of deflated zeros, makes nothing larger than its header allows.
 */
export function inflatePngData(data: Buffer, maxBytes: number): Buffer | 'too-large' | 'broken' {
  try {
    return zlib.inflateSync(data, {
      maxOutputLength: Math.max(maxBytes, 1),
      // pieces of a MB at most: one buffer of the whole image, allocated fresh, inflates a phone's
      // screenshot several times slower; the pieces are joined once at the end
      chunkSize: Math.max(Math.min(maxBytes + 1, INFLATE_CHUNK_BYTES), zlib.constants.Z_MIN_CHUNK),
    })
  } catch (error) {
    return (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'broken'
  }
}
