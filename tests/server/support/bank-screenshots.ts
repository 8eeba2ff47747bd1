import jpeg from 'jpeg-js'
import { PNG } from 'pngjs'

/** Decoded pixels, RGBA 8 bits a channel. */
export interface Pixels {
  width: number
  height: number
  data: Buffer
}

type Colour = readonly [number, number, number]

// seven-segment digits: which of a, b, c, d, e, f, g are lit
const SEGMENTS = ['abcdef', 'bc', 'abged', 'abgcd', 'fgbc', 'afgcd', 'afgedc', 'abc', 'abcdefg', 'abcdfg']

/**
 * A bank app's balance screen, drawn from a seed: the app's layout (header, balance, card, list, tab bar)
 * is the same for every seed; the balance, the rows' texts and amounts differ as two claimants' would.
 * `photo` adds a noisy banner, which a real screenshot's pictures make as incompressible as this.
 */
export function bankScreenshot({
  seed,
  width = 1080,
  height = 2340,
  brand = [20, 110, 90],
  photo = false,
}: {
  seed: number
  width?: number
  height?: number
  brand?: Colour
  photo?: boolean
}): Pixels {
  const random = seededRandom(seed)
  const data = Buffer.alloc(width * height * 4, 255)
  const fill = (x0: number, y0: number, w: number, h: number, colour: Colour) => {
    const [x1, y1] = [Math.min(width, Math.round(x0 + w)), Math.min(height, Math.round(y0 + h))]
    for (let y = Math.max(0, Math.round(y0)); y < y1; y++) {
      for (let x = Math.max(0, Math.round(x0)); x < x1; x++) data.set(colour, (y * width + x) * 4)
    }
  }
  const number = (x: number, y: number, size: number, digits: string, colour: Colour) => {
    const t = Math.max(2, size / 8)
    for (const [i, digit] of [...digits].entries()) {
      const left = x + i * size * 0.7
      const lit = SEGMENTS[Number(digit)] ?? ''
      const bar = (segment: string, x0: number, y0: number, w: number, h: number) =>
        lit.includes(segment) && fill(left + x0, y + y0, w, h, colour)
      bar('a', 0, 0, size / 2, t)
      bar('g', 0, size / 2 - t / 2, size / 2, t)
      bar('d', 0, size - t, size / 2, t)
      bar('f', 0, 0, t, size / 2)
      bar('e', 0, size / 2, t, size / 2)
      bar('b', size / 2 - t, 0, t, size / 2)
      bar('c', size / 2 - t, size / 2, t, size / 2)
    }
  }
  const ink: Colour = [40, 40, 48]
  const u = height / 100
  fill(0, 0, width, 9 * u, brand)
  fill(width * 0.06, 3.5 * u, width * 0.3, 1.6 * u, [255, 255, 255])
  number(width * 0.08, 12 * u, 6 * u, String(100 + Math.floor(random() * 99_900)), ink)
  fill(width * 0.06, 22 * u, width * 0.88, 14 * u, [236, 240, 244])
  fill(width * 0.1, 25 * u, width * (0.3 + random() * 0.4), 1.6 * u, ink)
  number(width * 0.1, 29 * u, 3.5 * u, String(1000 + Math.floor(random() * 9000)), ink)
  if (photo) {
    for (let y = Math.round(37 * u); y < Math.round(47 * u); y++) {
      for (let x = 0; x < width; x++) {
        const shade = 120 + Math.floor(random() * 100)
        data.set([shade, shade - 20, shade + 20], (y * width + x) * 4)
      }
    }
  }
  for (let row = 0; row < 9; row++) {
    const top = 49 * u + row * 4.8 * u
    fill(width * 0.06, top, 3.2 * u, 3.2 * u, brand)
    fill(width * 0.06 + 4.5 * u, top + 0.3 * u, width * (0.2 + random() * 0.3), 1.2 * u, ink)
    fill(width * 0.06 + 4.5 * u, top + 2 * u, width * (0.1 + random() * 0.2), 0.8 * u, [150, 150, 160])
    number(width * 0.72, top + 0.4 * u, 2.4 * u, String(10 + Math.floor(random() * 990)), ink)
    fill(0, top + 4.2 * u, width, 0.15 * u, [220, 220, 226])
  }
  fill(0, 93 * u, width, 7 * u, [246, 246, 248])
  for (let tab = 0; tab < 4; tab++) fill(width * (0.1 + tab * 0.23), 94.5 * u, 3.5 * u, 3.5 * u, brand)
  return { width, height, data }
}

export function encodePngImage(pixels: Pixels): Buffer {
  const png = new PNG({ width: pixels.width, height: pixels.height })
  pixels.data.copy(png.data)
  return PNG.sync.write(png)
}

export function encodeJpegImage(pixels: Pixels, quality: number): Buffer {
  return jpeg.encode(pixels, quality).data
}

/** The picture with `fraction` of its width cut off the right and of its height off the bottom. */
export function cropImage(
  pixels: Pixels,
  { right = 0, bottom = 0 }: { right?: number; bottom?: number },
): Pixels {
  const width = Math.round(pixels.width * (1 - right))
  const height = Math.round(pixels.height * (1 - bottom))
  const data = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    pixels.data.copy(data, y * width * 4, y * pixels.width * 4, (y * pixels.width + width) * 4)
  }
  return { width, height, data }
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}
