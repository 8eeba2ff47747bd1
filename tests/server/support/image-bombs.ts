import crypto from 'node:crypto'
import zlib from 'node:zlib'
import { encodePng, pngChunk } from '../../../scripts/seed/png.ts'
import { bankScreenshot, encodeJpegImage } from './bank-screenshots.ts'

// Small files that decode to far more than they weigh, as an attacker would send them instead of a
// screenshot, and a legitimate file as large as the form takes. Pure fixtures (no server imports).

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const PIECE = 16 * 1024 * 1024

/**
 * A zlib stream of `size` zero bytes, made of one deflated piece repeated (each ends in a full flush, so
 * none refers back to another): the zeros themselves are never held.
 */
export function deflatedZeros(size: number): Buffer {
  const piece = (bytes: number) =>
    zlib.deflateRawSync(Buffer.alloc(bytes), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH })
  const whole = piece(Math.min(PIECE, size))
  const blocks: Buffer[] = Array.from({ length: Math.floor(size / PIECE) }, () => whole)
  if (size % PIECE > 0) blocks.push(piece(size % PIECE))
  // Adler-32 of n zeros: a stays 1, b adds it n times
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE((((size % 65521) << 16) | 1) >>> 0)
  // zlib header, the blocks, a final empty fixed-Huffman block, the checksum
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...blocks, Buffer.from([0x03, 0x00]), adler])
}

function ihdr({
  width,
  height,
  colourType,
  bitDepth = 8,
  interlaced = false,
}: {
  width: number
  height: number
  colourType: number
  bitDepth?: number
  interlaced?: boolean
}): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = bitDepth
  header[9] = colourType
  header[12] = interlaced ? 1 : 0
  return pngChunk('IHDR', header)
}

function png(chunks: Buffer[]): Buffer {
  return Buffer.concat([PNG_SIGNATURE, ...chunks, pngChunk('IEND', Buffer.alloc(0))])
}

/** A 1×1 interlaced greyscale PNG whose image data is `inflatedBytes` of deflated zeros (1 MB per GB). */
export function interlacedZerosPng(inflatedBytes = 4 * 1024 * 1024 * 1024): Buffer {
  return png([
    ihdr({ width: 1, height: 1, colourType: 0, interlaced: true }),
    pngChunk('IDAT', deflatedZeros(inflatedBytes)),
  ])
}

/**
 * A 1×1 PNG with a second IHDR, 6000 × 6000 RGBA (36 MP), and image data of that size: the first
 * header is a pixel, the last the one a decoder uses.
 */
export function secondHeaderPng(): Buffer {
  return png([
    ihdr({ width: 1, height: 1, colourType: 2 }),
    ihdr({ width: 6000, height: 6000, colourType: 6 }),
    pngChunk('IDAT', deflatedZeros(6000 * (1 + 6000 * 4))),
  ])
}

/**
 * A 1×1 PNG whose second IHDR says 6000 × 6000 at one bit a pixel, with the data for it: 4.5 MB inflated,
 * and 144 MB once a decoder makes RGBA of it.
 */
export function secondHeaderBitmapPng(): Buffer {
  return png([
    ihdr({ width: 1, height: 1, colourType: 2 }),
    ihdr({ width: 6000, height: 6000, colourType: 0, bitDepth: 1 }),
    pngChunk('IDAT', deflatedZeros(6000 * (1 + 6000 / 8))),
  ])
}

/**
 * A signature whose first IHDR is a pixel and whose second says 4000 × 4000 RGBA, with image data of that
 * size: within a signature pad's limits by the first header, far past them by the one a decoder uses.
 */
export function secondHeaderSignature(): Buffer {
  return png([
    ihdr({ width: 1, height: 1, colourType: 6 }),
    ihdr({ width: 4000, height: 4000, colourType: 6 }),
    pngChunk('IDAT', deflatedZeros(4000 * (1 + 4000 * 4))),
  ])
}

/** A real JPEG whose frame header (SOF0) says 6000 × 6000: 36 MP. */
export function hugeFrameJpeg(): Buffer {
  const jpeg = Buffer.from(encodeJpegImage(bankScreenshot({ seed: 7, width: 64, height: 128 }), 80))
  for (let at = 2; at + 4 <= jpeg.length; at += 2 + jpeg.readUInt16BE(at + 2)) {
    if (jpeg[at] !== 0xff) throw new Error('the JPEG encoder wrote no frame header before its data')
    if (jpeg[at + 1] === 0xc0) {
      jpeg.writeUInt16BE(6000, at + 5)
      jpeg.writeUInt16BE(6000, at + 7)
      return jpeg
    }
  }
  throw new Error('the JPEG encoder wrote no frame header')
}

/**
 * An RGB PNG of noise (from a fixed seed, so no run differs) just under `bytes` long: it does not compress,
 * so the file is as large as the form takes while its pixels (1,860 × 1,860 for 10 MB) are a real picture.
 */
export function largeNoisePng(bytes: number): Buffer {
  const side = Math.floor(Math.sqrt((bytes * 0.99) / 3))
  const row = 1 + side * 3
  // AES-CTR over zeros with a fixed key: noise that is the same in every run
  const cipher = crypto.createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), Buffer.alloc(16))
  const scanlines = cipher.update(Buffer.alloc(side * row))
  for (let y = 0; y < side; y++) scanlines[y * row] = 0
  return encodePng({ width: side, height: side, colour: 'rgb', scanlines })
}
