import fs from 'node:fs'
import path from 'node:path'
import { makeJpeg, withExif, withXmp } from '../../scripts/seed/jpeg.ts'
import { encodePng } from '../../scripts/seed/png.ts'
import type { Random } from './random.ts'

/**
 * The screenshots the claims point at, written once into the disk store the job reads
 * (DATA_DIR/screenshots/…). Claims share these files by design: the bench measures the score, not the
 * duplicate check (which has its own bench). Genuine people send a phone's own screenshot (PNG, the
 * phone's screen size), a few a tablet's; an edited one names its editor in EXIF or XMP, was changed
 * after it was taken, or was cut to a size no phone's screen has.
 */
export interface ScreenshotPools {
  phone: string[]
  tablet: string[]
  /** EXIF Software "Adobe Photoshop …", at a phone's size. */
  photoshopped: string[]
  /** EXIF ModifyDate two days after DateTimeOriginal, Software the phone's system. */
  modifiedLater: string[]
  /** XMP CreatorTool naming an editor. */
  xmpEditor: string[]
  /** A plain PNG cut to a size no phone's screen has. */
  cropped: string[]
}

const FOLDER = 'fraud-bench-screenshots'
const PHONE_SIZES = [
  [1170, 2532],
  [1179, 2556],
  [1290, 2796],
  [828, 1792],
  [750, 1334],
  [1080, 2400],
  [1080, 2340],
  [1440, 3200],
  [1080, 1920],
  [720, 1600],
] as const
const TABLET_SIZES = [
  [2048, 2732],
  [1668, 2388],
  [1620, 2160],
] as const
const CROPPED_SIZES = [
  [1170, 1400],
  [900, 900],
] as const

export function writeScreenshots(dataDir: string, random: Random): ScreenshotPools {
  const folder = path.join(dataDir, 'screenshots', FOLDER)
  fs.mkdirSync(folder, { recursive: true })
  const write = (name: string, bytes: Buffer) => {
    fs.writeFileSync(path.join(folder, name), bytes)
    return `${FOLDER}/${name}`
  }
  const captured = new Date(Date.UTC(2026, 9, 1, 10, 0, 0))
  const twoDaysLater = new Date(captured.getTime() + 2 * 86_400_000 + 4 * 3_600_000)
  return {
    phone: PHONE_SIZES.map(([w, h]) => write(`phone-${w}x${h}.png`, screenPng(random, w, h))),
    tablet: TABLET_SIZES.map(([w, h]) => write(`tablet-${w}x${h}.png`, screenPng(random, w, h))),
    photoshopped: PHONE_SIZES.slice(0, 3).map(([w, h], n) =>
      write(
        `photoshop-${n}.jpg`,
        withExif(makeJpeg({ width: w, height: h }), {
          software: `Adobe Photoshop 25.${n} (Windows)`,
          modified: captured,
        }),
      ),
    ),
    modifiedLater: PHONE_SIZES.slice(3, 6).map(([w, h], n) =>
      write(
        `modified-${n}.jpg`,
        withExif(makeJpeg({ width: w, height: h }), {
          software: '17.4.1',
          taken: captured,
          modified: twoDaysLater,
        }),
      ),
    ),
    xmpEditor: (['Canva', 'Pixelmator Pro 3.5'] as const).map((tool, n) =>
      write(
        `xmp-${n}.jpg`,
        withXmp(makeJpeg({ width: PHONE_SIZES[n + 6]![0], height: PHONE_SIZES[n + 6]![1] }), tool),
      ),
    ),
    cropped: CROPPED_SIZES.map(([w, h]) => write(`cropped-${w}x${h}.png`, screenPng(random, w, h))),
  }
}

/** A PNG of a screen: flat bands and a strip of noise (a photo, text), a few hundred KB as a real one. */
function screenPng(random: Random, width: number, height: number): Buffer {
  const row = 1 + width * 3
  const scanlines = Buffer.alloc(row * height)
  const noisyRows = Math.min(height, 120)
  for (let y = 0; y < height; y++) {
    const shade = 0xf0 - Math.floor((y / height) * 0x40)
    for (let x = 0; x < width; x++) {
      const at = y * row + 1 + x * 3
      const noisy = y < noisyRows
      scanlines[at] = noisy ? random.int(0, 255) : shade
      scanlines[at + 1] = noisy ? random.int(0, 255) : shade
      scanlines[at + 2] = noisy ? random.int(0, 255) : 0xff
    }
  }
  return encodePng({ width, height, colour: 'rgb', scanlines })
}
