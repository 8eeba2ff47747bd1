import { fileTypeFromBuffer } from 'file-type'

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

/**
 * Markup a browser runs when it reads bytes as HTML or SVG: a script, frame or plugin tag, a whole
 * document, an event handler on a tag, a javascript: URL. Magic bytes only say how a file starts, so a
 * polyglot (a GIF header then a page, a PNG with a script after IEND or in a text chunk, a JPEG comment
 * holding an <svg onload>) passes the type check; this finds its payload anywhere in the file. The
 * patterns are long enough that random (compressed pixel) bytes match one by chance about once in
 * 300,000 files of 10 MB, and ten times less often for a usual 1 MB screenshot.
 */
const MARKUP =
  /<(?:script|iframe|object|embed|applet|html|!doctype)[\t\n\f\r />]|<[a-z][a-z0-9-]*[\t\n\f\r\x20-\x3b\x3d\x3f-\x7e\x80-\xff]{0,200}?[\t\n\f\r /"']on[a-z]{3,}[\t\n\f\r ]*=|javascript:/i

export interface SniffedImage {
  mime: string
  extension: string
}

/** The image type the bytes really are (magic bytes), or undefined for anything else. */
export async function sniffImage(bytes: Uint8Array): Promise<SniffedImage | undefined> {
  const type = await fileTypeFromBuffer(bytes)
  if (!type || !IMAGE_TYPES.has(type.mime)) return undefined // fail-closed: unknown content is not an image
  if (carriesMarkup(bytes)) return undefined // fail-closed: an image that is also a page is not an image
  return { mime: type.mime, extension: type.ext }
}

/** True when the bytes, read as text the way a browser's HTML parser would, hold markup that runs. */
function carriesMarkup(bytes: Uint8Array): boolean {
  return MARKUP.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))
}
