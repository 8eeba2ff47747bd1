import { fileTypeFromBuffer } from 'file-type'
import { SCREENSHOT_TYPES } from '../../src/claim-messages.ts'
import { findsMarkup } from './find-markup.ts'
import { isImageWithinLimits } from './image-limits.ts'
import { isPng, pngChunks } from './png-image.ts'

/** Image types a screenshot may be, by their content: the PNG and JPEG the form asks for. */
const IMAGE_TYPES = new Set(SCREENSHOT_TYPES)

export interface SniffedImage {
  mime: string
  extension: string
}

const PNG: SniffedImage = { mime: 'image/png', extension: 'png' }

/**
 * The image type the bytes really are (magic bytes), or undefined for anything else, and for an image
 * past the pixel cap or whose data inflates past its header (image-limits.ts).
 */
export async function sniffImage(bytes: Buffer): Promise<SniffedImage | undefined> {
  const type = isPlainPng(bytes) ? PNG : await fileTypeFromBuffer(bytes).then(asImage)
  if (!type) return undefined // fail-closed: unknown content is not an image
  if (findsMarkup(bytes)) return undefined // fail-closed: an image that is also a page is not an image
  if (!isImageWithinLimits(bytes, type.mime)) return undefined // fail-closed: what would take gigabytes to decode
  return type
}

function asImage(type: { mime: string; ext: string } | undefined): SniffedImage | undefined {
  return type && IMAGE_TYPES.has(type.mime) ? { mime: type.mime, extension: type.ext } : undefined
}

const IHDR_LENGTH = 13
/** Chunks walked before the first IDAT; file-type gives up after 512. */
const MAX_CHUNKS = 64

/**
 * True for the PNG most screenshots are: the signature, a 13-byte IHDR, then whole chunks up to the first
 * IDAT with no `acTL` before it and no other IHDR (that would make it an animated PNG). This is the answer file-type gives
 * such a file, without its async reader (about half of a claim's type check); anything else, and any
 * PNG this walk is unsure of, goes to file-type.
 */
export function isPlainPng(bytes: Buffer): boolean {
  if (!isPng(bytes)) return false
  let chunks = 0
  for (const { type, length } of pngChunks(bytes)) {
    if ((chunks === 0) !== (type === 'IHDR') || (type === 'IHDR' && length !== IHDR_LENGTH)) return false
    if (type === 'IDAT') return true
    if (type === 'acTL' || length > 0x7fffffff || ++chunks >= MAX_CHUNKS) return false
  }
  return false
}
