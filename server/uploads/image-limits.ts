import { inflatedPngSize, inflatePngData, INFLATED_SLACK_BYTES, readPngImage } from './png-image.ts'

/**
 * The most pixels a screenshot may have. A phone screenshot is a few megapixels; decoded, 25 MP is
 * already a hundred MB of RGBA, which the duplicate check (server/duplicates/) makes of every screenshot.
 */
export const MAX_IMAGE_PIXELS = 25_000_000

/** Whether a screenshot of this type decodes within the pixel cap, to no more than its header says. */
export function isImageWithinLimits(bytes: Buffer, mime: string): boolean {
  if (mime === 'image/png') return isPngWithinLimits(bytes)
  if (mime === 'image/jpeg') return isJpegWithinLimits(bytes)
  return false // fail-closed: a type with no limits here is not taken
}

/**
 * A PNG with one IHDR, at most MAX_IMAGE_PIXELS by it, whose image data inflates (bounded) to no more
 * than that header's rows. A decoder sizes its work by the header it reads and inflates what the data
 * holds: a 1 × 1 image with gigabytes of deflated zeros, or a second IHDR of 6000 × 6000, would
 * otherwise pass as a small picture and take gigabytes to decode. Data that is broken is left to the
 * decoder, which fails on it cheaply.
 */
export function isPngWithinLimits(bytes: Buffer): boolean {
  const image = readPngImage(bytes)
  if (!image) return false
  const { header, data } = image
  if (header.width * header.height > MAX_IMAGE_PIXELS) return false
  return inflatePngData(data, inflatedPngSize(header) + INFLATED_SLACK_BYTES) !== 'too-large'
}

const SOI = 0xd8
const EOI = 0xd9

/**
 * A JPEG with at least one frame header (SOF), each within MAX_IMAGE_PIXELS and of a known size (a height
 * of 0 leaves it to a DNL marker no decoder here reads). Segments are walked by their lengths, entropy-
 * coded data by its markers (a 0xFF in it is followed by 0x00 or a restart marker), up to EOI.
 */
export function isJpegWithinLimits(bytes: Buffer): boolean {
  if (bytes[0] !== 0xff || bytes[1] !== SOI) return false
  let frames = 0
  let at = 2
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) {
      at = bytes.indexOf(0xff, at)
      if (at === -1) break
      continue
    }
    const marker = bytes[at + 1]!
    // fill bytes, a stuffed 0xFF in entropy-coded data, restart markers, TEM: no length follows
    if (marker === 0xff) {
      at += 1
      continue
    }
    if (marker === 0x00 || marker === 0x01 || marker === SOI || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2
      continue
    }
    if (marker === EOI || at + 4 > bytes.length) break
    const length = bytes.readUInt16BE(at + 2)
    if (isFrameHeader(marker)) {
      if (at + 9 > bytes.length) return false
      const height = bytes.readUInt16BE(at + 5)
      const width = bytes.readUInt16BE(at + 7)
      if (width === 0 || height === 0 || width * height > MAX_IMAGE_PIXELS) return false
      frames += 1
    }
    at += 2 + length
  }
  return frames > 0
}

/** SOF0 to SOF15 but DHT (C4), JPG (C8) and DAC (CC), which share the range. */
function isFrameHeader(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
}
