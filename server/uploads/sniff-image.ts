import { fileTypeFromBuffer } from 'file-type'
import { findsMarkup } from './find-markup.ts'

/** Image types a screenshot may be, by their content. SVG is left out: it can carry script. */
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
  'image/bmp',
  'image/tiff',
])

export interface SniffedImage {
  mime: string
  extension: string
}

/** The image type the bytes really are (magic bytes), or undefined for anything else. */
export async function sniffImage(bytes: Uint8Array): Promise<SniffedImage | undefined> {
  const type = await fileTypeFromBuffer(bytes)
  if (!type || !IMAGE_TYPES.has(type.mime)) return undefined // fail-closed: unknown content is not an image
  if (findsMarkup(bytes)) return undefined // fail-closed: an image that is also a page is not an image
  return { mime: type.mime, extension: type.ext }
}
