import exifr from 'exifr'
import { readPngImage } from '../uploads/png-image.ts'

/** What the fraud tests read from a screenshot's bytes. */
export interface ScreenshotFacts {
  width: number
  height: number
  /** The editor its metadata names (EXIF or XMP Software, CreatorTool), when it is one. */
  editor?: string
  /** Its metadata says it was changed after it was taken (ModifyDate after DateTimeOriginal). */
  modifiedAfterCapture: boolean
}

/** Programs that edit pictures; a phone's own screenshot names its system (iOS, Android) or nothing. */
const EDITORS =
  /photoshop|gimp|pixelmator|snapseed|picsart|canva|lightroom|affinity|paint\.net|photopea|fotor|inkscape|illustrator|krita|paintshop|acorn/i

/** A JPEG's size from its frame header (SOF0-SOF15 but DHT, JPG, DAC). */
function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = bytes[at + 1]!
    if (marker === 0xff) {
      at += 1
      continue
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)
    if (isFrame) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) }
    if (marker === 0xd9 || marker === 0xda) return undefined
    at += 2 + bytes.readUInt16BE(at + 2)
  }
  return undefined
}

/** The picture's size and what its metadata says of edits; undefined for bytes that are neither PNG nor JPEG. */
export async function screenshotFacts(bytes: Buffer): Promise<ScreenshotFacts | undefined> {
  const png = readPngImage(bytes)
  const size = png ? { width: png.header.width, height: png.header.height } : jpegSize(bytes)
  if (!size) return undefined
  // the blocks that can name an editor or a date, read whole: exifr's `pick` keeps only the tags it
  // knows by block, which drops XMP's CreatorTool and, with TIFF tags picked, the Exif IFD's dates
  const meta = (await exifr
    .parse(bytes, {
      tiff: true,
      exif: true,
      xmp: true,
      ifd1: false,
      gps: false,
      interop: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
    })
    .catch(() => undefined)) as Record<string, unknown> | undefined
  const software = [meta?.Software, meta?.CreatorTool].find(
    (value): value is string => typeof value === 'string' && EDITORS.test(value),
  )
  const taken = asTime(meta?.DateTimeOriginal) ?? asTime(meta?.CreateDate)
  const modified = asTime(meta?.ModifyDate)
  return {
    ...size,
    ...(software ? { editor: software.slice(0, 80) } : {}),
    modifiedAfterCapture: taken !== undefined && modified !== undefined && modified > taken + 60_000,
  }
}

function asTime(value: unknown): number | undefined {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value.getTime()
  if (typeof value === 'string') {
    const time = Date.parse(value)
    return Number.isNaN(time) ? undefined : time
  }
  return undefined
}

/**
 * Whether a picture has a phone screen's shape: its short side 320 to 1,600 pixels and its long side
 * 1.5 to 2.4 times that (3:2 of the first iPhones to 20:9 and taller of today's Android phones).
 */
export function isPhoneScreenSize({ width, height }: { width: number; height: number }): boolean {
  const [short, long] = width < height ? [width, height] : [height, width]
  const ratio = long / short
  return short >= 320 && short <= 1600 && ratio >= 1.5 && ratio <= 2.4
}
