import zlib from 'node:zlib'
import { findsMarkup } from './find-markup.ts'

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const MAX_IMAGE_PIXELS = 4096 * 4096
const DEFLATE_MAX_RATIO = 1032
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }
// [x0, y0, dx, dy] of the scans png-js walks: Adam7 passes, or one pass for a plain image
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
]

/**
 * The most a signature pad makes: the widest pad at twice the screen's density, 8 bits a channel. A
 * larger image (a 4096 × 4096 PNG is a 174 KB data URL) costs every PDF of the agreement seconds and
 * hundreds of megabytes.
 */
export const SIGNATURE_LIMITS = {
  width: 3000,
  height: 1000,
  bitsPerChannel: 8,
  inflatedBytes: 8 * 1024 * 1024,
}
export const SIGNATURE_TOO_LARGE_MESSAGE = `the signature image is larger than a signature pad makes (at most ${SIGNATURE_LIMITS.width} × ${SIGNATURE_LIMITS.height} pixels, ${SIGNATURE_LIMITS.bitsPerChannel} bits a channel, ${SIGNATURE_LIMITS.inflatedBytes / 1024 / 1024} MB unpacked)`

/** A signature's data URL: a PNG that decodes with no markup in it, too large a one, or not one at all. */
export type SignatureCheck = 'png' | 'too-large' | 'not-png'

export function checkSignaturePng(dataUrl: string): SignatureCheck {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')
  if (!isPng(bytes) || findsMarkup(bytes)) return 'not-png'
  // IHDR comes first: width, height, bit depth, colour type
  if (bytes.length >= 26 && bytes.toString('latin1', 12, 16) === 'IHDR') {
    const width = bytes.readUInt32BE(16)
    const height = bytes.readUInt32BE(20)
    const bits = bytes[24] ?? 0
    const channels = PNG_CHANNELS[bytes[25] ?? -1] ?? 4
    const inflated = Math.ceil((width * channels * bits) / 8) * height + height
    if (
      width > SIGNATURE_LIMITS.width ||
      height > SIGNATURE_LIMITS.height ||
      bits > SIGNATURE_LIMITS.bitsPerChannel ||
      inflated > SIGNATURE_LIMITS.inflatedBytes
    ) {
      return 'too-large'
    }
  }
  // a PNG that only starts right would break the agreement's PDF later: it must decode now
  return isDecodablePng(bytes) ? 'png' : 'not-png'
}

/** Whether a drawn signature's data URL holds a PNG that decodes, within the limits, with no markup in it. */
export function isSignaturePng(dataUrl: string): boolean {
  return checkSignaturePng(dataUrl) === 'png'
}

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

/**
 * pdfkit hands PNGs with alpha, a palette or interlacing to png-js, which inflates them in a zlib callback and
 * throws from there on bad data: an uncaught exception that would take the server down, or a PDF that never
 * ends. So the image data is inflated here first, and each row's filter byte read the way png-js reads it.
 */
export function isDecodablePng(bytes: Buffer): boolean {
  let header: { width: number; height: number; bitsPerPixel: number; isInterlaced: boolean } | undefined
  const data: Buffer[] = []
  let ended = false
  for (const { type, length, body, complete } of pngChunks(bytes)) {
    if (!complete) return false
    if (type === 'IEND') {
      ended = true
      break
    }
    if (type === 'IDAT') data.push(body)
    if (type === 'IHDR' && length >= 13) {
      const channels = PNG_CHANNELS[body[9] ?? -1]
      const bits = body[8] ?? 0
      if (!channels || ![1, 2, 4, 8, 16].includes(bits)) return false
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        bitsPerPixel: channels * bits,
        isInterlaced: body[12] === 1,
      }
    }
  }
  if (!ended) return false
  if (!header || header.width === 0 || header.height === 0) return false
  const { width, height, bitsPerPixel, isInterlaced } = header
  if (width * height > MAX_IMAGE_PIXELS) return false
  let pixels: Buffer
  try {
    const compressed = data.length === 1 ? data[0]! : Buffer.concat(data)
    const maxOutputLength = Math.ceil((width * height * bitsPerPixel) / 8) + 8 * height + 1024
    // one output buffer (rather than zlib's pieces joined at the end, which copy the image twice) of the
    // most the image can hold, and never more than its data can inflate to (deflate's
    // limit is 1032 to 1), so that a small image claiming to be huge cannot make us allocate 64 MB
    const mostItCanHold = Math.min(maxOutputLength, compressed.length * DEFLATE_MAX_RATIO + 1024)
    pixels = zlib.inflateSync(compressed, {
      maxOutputLength,
      chunkSize: Math.max(mostItCanHold + 1, zlib.constants.Z_MIN_CHUNK),
    })
  } catch {
    return false
  }
  let offset = 0
  for (const [x0 = 0, y0 = 0, dx = 1, dy = 1] of isInterlaced ? ADAM7 : [[0, 0, 1, 1]]) {
    const rowBytes = 1 + Math.ceil((Math.max(Math.ceil((width - x0) / dx), 0) * bitsPerPixel) / 8)
    for (let row = 0; row < Math.ceil((height - y0) / dy) && offset < pixels.length; row++) {
      if ((pixels[offset] ?? 0) > 4) return false
      offset += rowBytes
    }
  }
  return true
}
