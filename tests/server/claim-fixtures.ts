import zlib from 'node:zlib'

/** Pure fixtures (no server imports), so the src/ unit tests can use them too. */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(typeAndData))
  return Buffer.concat([length, typeAndData, crc])
}

/**
 * A real RGB PNG (signature, IHDR, IDAT, IEND) with a few coloured stripes, so it looks like something.
 * @example makePng({ width: 200, height: 100 }).subarray(1, 4).toString() // 'PNG'
 */
export function makePng({ width = 1, height = 1 }: { width?: number; height?: number } = {}): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // colour type: RGB
  // bytes 10..12: deflate compression, adaptive filtering, no interlace (all 0)
  const rowLength = 1 + width * 3
  const pixels = Buffer.alloc(rowLength * height)
  for (let y = 0; y < height; y++) {
    const row = y * rowLength // filter byte 0 (none) stays at pixels[row]
    for (let x = 0; x < width; x++) {
      const stripe = Math.floor((x / Math.max(width, 1)) * 4)
      pixels[row + 1 + x * 3] = stripe === 0 ? 0x1d : 0xf0
      pixels[row + 2 + x * 3] = stripe === 1 ? 0x4e : 0xf0
      pixels[row + 3 + x * 3] = stripe === 2 ? 0xd8 : (y * 255) / Math.max(height - 1, 1)
    }
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** A PNG data URL like the signature pad produces. */
export function pngDataUrl(png: Buffer = makePng({ width: 4, height: 2 })): string {
  return `data:image/png;base64,${png.toString('base64')}`
}

/**
 * A valid Step 2 claim as the client sends it in the `data` field (the screenshot travels as a file).
 * A key overridden with `undefined` is left out, as JSON.stringify would.
 * @example makeClaimData({ email: undefined }) // no email at all
 */
export function makeClaimData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const data: Record<string, unknown> = {
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane.doe@example.com',
    phoneNumber: '(555) 223-4567',
    cashAdvanceCount: 3,
    membershipMonths: 12,
    signature: pngDataUrl(),
    ...overrides,
  }
  for (const key of Object.keys(data)) if (data[key] === undefined) delete data[key]
  return data
}

/** A claims row as the server stores it (no file on disk), for tests that write rows directly. */
export function claimRow(phone: string, lastName = 'Okafor') {
  return {
    app: 'brigit',
    created_at: new Date().toISOString(),
    first_name: 'Ada',
    last_name: lastName,
    email: `ada.${phone.replace(/\D/g, '')}@example.com`,
    phone_number: phone,
    cash_advance_count: 3,
    membership_months: 4,
    screenshot_key: `brigit-screenshots/${phone.replace(/\D/g, '')}.png`,
    screenshot_type: 'image/png',
    locale: 'en',
  }
}
