import crypto from 'node:crypto'
import jpeg from 'jpeg-js'
import { PNG } from 'pngjs'
import { isImageWithinLimits, MAX_IMAGE_PIXELS } from '../uploads/image-limits.ts'
import { isPng } from '../uploads/png-image.ts'

/** What a screenshot is compared by: its bytes' SHA-256, and hashes of what it looks like. */
export interface ScreenshotFingerprint {
  /** Hex: equal only for the same bytes. */
  sha256: string
  /**
   * HASH_BITS-bit hashes as hex, of the whole picture and then of it with 3 and 6 per cent off its
   * right, left, bottom and top edge: the same picture re-compressed or scaled hashes near the first, and
   * one cropped by 1 to 7 per cent near one of the others. Undefined for a picture with too little in it (blank, or
   * nearly flat), whose hashes would be near every other such picture's.
   */
  perceptualHashes: string[] | undefined
  /**
   * FINE_HASH_BITS-bit hashes from a grid twice as fine each way, of the whole picture and of it with 1
   * to 7 per cent (a window every per cent) off each edge: a second
   * measure a near pair must also pass. Two claimants' statements in one bank app share their layout, so
   * the coarse hashes of a few such pairs land as near as a re-encoded copy's; the rows' text, which the
   * fine hash sees, keeps them apart. Undefined where perceptualHashes is, and for hashes stored before
   * the fine ones were made.
   */
  fineHashes?: string[] | undefined
}

/** The grid a window of the picture is shrunk to, and the low frequencies kept of its DCT. */
interface HashShape {
  gridWidth: number
  gridHeight: number
  keptWidth: number
  keptHeight: number
  /** What is cut off each edge in turn for the cropped windows, after the whole picture's. */
  crops: readonly number[]
}
const COARSE: HashShape = {
  gridWidth: 32,
  gridHeight: 64,
  keptWidth: 8,
  keptHeight: 16,
  // a phone's status bar is 3 to 7 per cent of its height: a crop near either lands near one
  crops: [0.03, 0.06],
}
const FINE: HashShape = {
  gridWidth: 64,
  gridHeight: 128,
  keptWidth: 16,
  keptHeight: 32,
  // the fine hash moves some 50 bits for a crop one per cent off its window's: a window every per cent
  crops: [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07],
}
export const HASH_BITS = COARSE.keptWidth * COARSE.keptHeight
export const FINE_HASH_BITS = FINE.keptWidth * FINE.keptHeight
type Window = readonly [left: number, right: number, top: number, bottom: number]
/** The whole picture, then for each crop the picture with it cut off its right, left, bottom and top edge. */
function windowsOf({ crops }: HashShape): Window[] {
  return [
    [0, 1, 0, 1],
    ...crops.flatMap((crop): Window[] => [
      [0, 1 - crop, 0, 1],
      [crop, 1, 0, 1],
      [0, 1, 0, 1 - crop],
      [0, 1, crop, 1],
    ]),
  ]
}
// the picture is first shrunk to at most this, and every window's grid taken from that
const SMALL_WIDTH = 256
const SMALL_HEIGHT = 512
// the brightness's standard deviation (0 to 255) below which a picture is too flat to compare
const MIN_CONTRAST = 4

/** Decodes a PNG or JPEG and fingerprints it; throws on anything else, or on a file that does not decode. */
export function fingerprintScreenshot(bytes: Uint8Array): ScreenshotFingerprint {
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex')
  const small = shrink(decodeImage(bytes))
  if (contrast(small) < MIN_CONTRAST) return { sha256, perceptualHashes: undefined }
  const hashes = (shape: HashShape) =>
    windowsOf(shape).map((window) =>
      dctHash(windowGrid(small, window, shape), shape)
        .toString(16)
        .padStart((shape.keptWidth * shape.keptHeight) / 4, '0'),
    )
  return { sha256, perceptualHashes: hashes(COARSE), fineHashes: hashes(FINE) }
}

/** The number of bits that differ between two perceptual hashes (hex, of the same length). */
export function hashDistance(a: string, b: string): number {
  let count = 0
  // eight hex digits at a time: 32 bits, exact in a double, counted with bit operations
  for (let at = 0; at < a.length; at += 8) {
    let bits = (parseInt(a.slice(at, at + 8), 16) ^ parseInt(b.slice(at, at + 8), 16)) >>> 0
    bits -= (bits >>> 1) & 0x55555555
    bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333)
    count += Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
  }
  return count
}

interface DecodedImage {
  width: number
  height: number
  /** RGBA, 8 bits a channel. */
  data: Uint8Array
}

function decodeImage(bytes: Uint8Array): DecodedImage {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // the door's limits again, before any decoder sizes its work by a header: a file stored before they
  // were kept, or by another way in, must not make this thread inflate without bound
  const mime = isPng(buffer)
    ? 'image/png'
    : buffer[0] === 0xff && buffer[1] === 0xd8
      ? 'image/jpeg'
      : undefined
  if (!mime) throw new Error('the file is neither a PNG nor a JPEG')
  if (!isImageWithinLimits(buffer, mime)) {
    throw new Error('the image has more pixels than a screenshot may, or more data than its header allows')
  }
  if (mime === 'image/png') return PNG.sync.read(buffer)
  return jpeg.decode(buffer, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: MAX_IMAGE_PIXELS / 1_000_000,
    maxMemoryUsageInMB: 256,
  })
}

interface GrayImage {
  width: number
  height: number
  /** Brightness, 0 to 255, row by row. */
  gray: Float64Array
}

/**
 * The picture's brightness averaged over cells of at most SMALL_WIDTH × SMALL_HEIGHT: every pixel
 * counts, so JPEG noise and resampling average out. Transparent pixels are seen over white.
 */
function shrink({ width, height, data }: DecodedImage): GrayImage {
  const small = { width: Math.min(width, SMALL_WIDTH), height: Math.min(height, SMALL_HEIGHT) }
  const sums = new Float64Array(small.width * small.height)
  const counts = new Float64Array(small.width * small.height)
  const cellX = new Uint32Array(width)
  for (let x = 0; x < width; x++) cellX[x] = Math.floor((x * small.width) / width)
  for (let y = 0; y < height; y++) {
    const rowCell = Math.floor((y * small.height) / height) * small.width
    let at = y * width * 4
    for (let x = 0; x < width; x++, at += 4) {
      const alpha = data[at + 3]! / 255
      const luma = 0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]!
      const cell = rowCell + cellX[x]!
      sums[cell]! += luma * alpha + 255 * (1 - alpha)
      counts[cell]! += 1
    }
  }
  for (let cell = 0; cell < sums.length; cell++) sums[cell] = sums[cell]! / Math.max(counts[cell]!, 1)
  return { ...small, gray: sums }
}

function contrast({ gray }: GrayImage): number {
  let sum = 0
  let squares = 0
  for (const value of gray) {
    sum += value
    squares += value * value
  }
  const mean = sum / gray.length
  return Math.sqrt(Math.max(squares / gray.length - mean * mean, 0))
}

/** A window of the picture (fractions of its width and height) averaged over the shape's grid. */
function windowGrid(
  { width, height, gray }: GrayImage,
  [left, right, top, bottom]: Window,
  { gridWidth: GRID_WIDTH, gridHeight: GRID_HEIGHT }: HashShape,
): Float64Array {
  const sums = new Float64Array(GRID_WIDTH * GRID_HEIGHT)
  const counts = new Float64Array(GRID_WIDTH * GRID_HEIGHT)
  const [x0, x1] = [Math.round(left * width), Math.round(right * width)]
  const [y0, y1] = [Math.round(top * height), Math.round(bottom * height)]
  for (let y = y0; y < y1; y++) {
    const rowCell = Math.floor(((y - y0) * GRID_HEIGHT) / (y1 - y0)) * GRID_WIDTH
    for (let x = x0; x < x1; x++) {
      const cell = rowCell + Math.floor(((x - x0) * GRID_WIDTH) / (x1 - x0))
      sums[cell]! += gray[y * width + x]!
      counts[cell]! += 1
    }
  }
  for (let cell = 0; cell < sums.length; cell++) sums[cell] = sums[cell]! / Math.max(counts[cell]!, 1)
  return sums
}

const cosines = (size: number, kept: number) => {
  const table = new Float64Array(kept * size)
  for (let k = 0; k < kept; k++) {
    for (let n = 0; n < size; n++) table[k * size + n] = Math.cos(((2 * n + 1) * k * Math.PI) / (2 * size))
  }
  return table
}
const COSINES = new Map(
  [COARSE, FINE].map((shape) => [
    shape,
    { x: cosines(shape.gridWidth, shape.keptWidth), y: cosines(shape.gridHeight, shape.keptHeight) },
  ]),
)

/**
 * The DCT of the grid, its keptWidth × keptHeight lowest frequencies, each bit set when the
 * coefficient is above their median (the first, the overall brightness, takes no part in the median).
 * Low frequencies survive re-compression and scaling; the median keeps the bits balanced. A tall grid
 * because screenshots are: the rows of a bank app's list are what tell two of them apart.
 */
function dctHash(grid: Float64Array, shape: HashShape): bigint {
  const {
    gridWidth: GRID_WIDTH,
    gridHeight: GRID_HEIGHT,
    keptWidth: KEPT_WIDTH,
    keptHeight: KEPT_HEIGHT,
  } = shape
  const { x: COSINES_X, y: COSINES_Y } = COSINES.get(shape)!
  // rows first: for each grid row, its KEPT_WIDTH lowest horizontal frequencies
  const rows = new Float64Array(GRID_HEIGHT * KEPT_WIDTH)
  for (let y = 0; y < GRID_HEIGHT; y++) {
    for (let k = 0; k < KEPT_WIDTH; k++) {
      let sum = 0
      for (let x = 0; x < GRID_WIDTH; x++) sum += grid[y * GRID_WIDTH + x]! * COSINES_X[k * GRID_WIDTH + x]!
      rows[y * KEPT_WIDTH + k] = sum
    }
  }
  const coefficients = new Float64Array(KEPT_WIDTH * KEPT_HEIGHT)
  for (let v = 0; v < KEPT_HEIGHT; v++) {
    for (let k = 0; k < KEPT_WIDTH; k++) {
      let sum = 0
      for (let y = 0; y < GRID_HEIGHT; y++) sum += rows[y * KEPT_WIDTH + k]! * COSINES_Y[v * GRID_HEIGHT + y]!
      coefficients[v * KEPT_WIDTH + k] = sum
    }
  }
  const sorted = [...coefficients.subarray(1)].sort((a, b) => a - b)
  const median = sorted[(sorted.length - 1) >> 1]!
  let bits = 0n
  for (const coefficient of coefficients) bits = (bits << 1n) | (coefficient > median ? 1n : 0n)
  return bits
}
