import { findsMarkup } from './find-markup.ts'
import { inflatedPngSize, inflatePngData, INFLATED_SLACK_BYTES, pngScans, readPngImage } from './png-image.ts'

// the most pixels an image in an agreement's PDF may have
const MAX_PDF_IMAGE_PIXELS = 4096 * 4096

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
  // one IHDR, the first chunk: the header checked here is the one every decoder uses
  const image = readPngImage(bytes)
  if (!image || findsMarkup(bytes)) return 'not-png'
  const { width, height, bitDepth } = image.header
  if (
    width > SIGNATURE_LIMITS.width ||
    height > SIGNATURE_LIMITS.height ||
    bitDepth > SIGNATURE_LIMITS.bitsPerChannel ||
    inflatedPngSize(image.header) > SIGNATURE_LIMITS.inflatedBytes
  ) {
    return 'too-large'
  }
  // a PNG that only starts right would break the agreement's PDF later: it must decode now
  return isDecodablePng(bytes) ? 'png' : 'not-png'
}

/** Whether a drawn signature's data URL holds a PNG that decodes, within the limits, with no markup in it. */
export function isSignaturePng(dataUrl: string): boolean {
  return checkSignaturePng(dataUrl) === 'png'
}

/**
 * pdfkit hands PNGs with alpha, a palette or interlacing to png-js, which inflates them in a zlib callback and
 * throws from there on bad data: an uncaught exception that would take the server down, or a PDF that never
 * ends. So the image data is inflated here first, no further than its header's rows, and each row's filter
 * byte read the way png-js reads it.
 */
export function isDecodablePng(bytes: Buffer): boolean {
  const image = readPngImage(bytes)
  if (!image?.isComplete) return false
  const { header, data } = image
  if (header.width * header.height > MAX_PDF_IMAGE_PIXELS) return false
  const pixels = inflatePngData(data, inflatedPngSize(header) + INFLATED_SLACK_BYTES)
  if (typeof pixels === 'string') return false
  let offset = 0
  for (const { rows, rowBytes } of pngScans(header)) {
    for (let row = 0; row < rows && offset < pixels.length; row++) {
      if ((pixels[offset] ?? 0) > 4) return false
      offset += rowBytes
    }
  }
  return true
}
