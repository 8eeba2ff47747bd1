import { PAYMENTS_KEY_FILE } from '../../../server/payouts/sealed-numbers.ts'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import request from 'supertest'
import { EVIDENCE_KEY_FILE } from '../../../server/evidence/evidence-key.ts'
import { TWO_FACTOR_KEY_FILE } from '../../../server/staff/two-factor/two-factor-key.ts'
import { PDF_SIGNING_FILE } from '../../../server/agreements/pdf-seal.ts'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import {
  clearClaims,
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  pngDataUrl,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { bankScreenshot, encodeJpegImage } from '../support/bank-screenshots.ts'

// The 10 MB + 1 byte upload (413, nothing stored) and the HTML page renamed .png (422) are in claims.test.ts.

const NOT_AN_IMAGE = 'Please upload an image file'
const SIGNATURE_REQUIRED = 'Please provide your signature'
const SITE = 'uploads.test'
const SCRIPT = '<script>window.__pwned=1</script>'
const PNG = readFixture('bank-statement.png')
// the classic 1×1 transparent GIF
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')
// a real JPEG: the server reads its frame header for the pixel cap
const JPEG = encodeJpegImage(bankScreenshot({ seed: 3, width: 16, height: 16 }), 80)
// a generated key: the app's folder, a timestamp, 16 random hex digits, the sniffed extension
const GENERATED_KEY = /^brigit-screenshots\/\d{13}-[0-9a-f]{16}\.(png|jpg)$/

/** A PNG chunk (length, type, data, CRC), to hide text inside an otherwise valid PNG. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])))
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, crc])
}

/** A valid PNG with a tEXt chunk holding `text` before its image data. */
function pngWithText(text: string): Buffer {
  const png = makePng({ width: 8, height: 8 })
  const afterHeader = 8 + 25 // signature + IHDR chunk
  return Buffer.concat([
    png.subarray(0, afterHeader),
    pngChunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')),
    png.subarray(afterHeader),
  ])
}

interface Attack {
  what: string
  name: string
  bytes: Buffer
}

// files no image viewer would show: refused by their content, whatever the name says
const NOT_IMAGES: Attack[] = [
  {
    what: 'an SVG with a <script> named .png',
    name: 'statement.png',
    bytes: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${SCRIPT}</svg>`),
  },
  {
    what: 'an SVG with an XML prolog and an onload handler named .png',
    name: 'statement.png',
    bytes: Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned=1"/>',
    ),
  },
  { what: 'an HTML page with a <script> named .jpg', name: 'scan.jpg', bytes: readFixture('page.png') },
  { what: 'a zero-byte file', name: 'empty.png', bytes: Buffer.alloc(0) },
]

// real images of the types the form does not ask for (it asks for a PNG or JPG)
const OTHER_IMAGES: Attack[] = [
  { what: 'a GIF named .png', name: 'statement.png', bytes: GIF },
  {
    what: 'a WebP named .png',
    name: 'statement.png',
    bytes: Buffer.concat([
      Buffer.from(
        'RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0\x2f\0\0\0\x10\x07\x10\x11\x11\x88\x88\xfe\x07\0',
        'latin1',
      ),
    ]),
  },
  {
    what: 'a BMP named .jpg',
    name: 'statement.jpg',
    bytes: Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(64)]),
  },
  {
    what: 'a TIFF named .png',
    name: 'statement.png',
    bytes: Buffer.concat([Buffer.from('II*\0\x08\0\0\0'), Buffer.alloc(64)]),
  },
]

// image magic bytes followed or carried by markup a browser would run if it ever read the file as HTML
const POLYGLOTS: Attack[] = [
  {
    what: 'a GIF header followed by HTML and script',
    name: 'statement.gif',
    bytes: Buffer.from(`GIF89a/*<html><body>${SCRIPT}</body></html>*/`),
  },
  {
    what: 'a valid PNG with a <script> appended after IEND',
    name: 'statement.png',
    bytes: Buffer.concat([makePng({ width: 8, height: 8 }), Buffer.from(SCRIPT)]),
  },
  {
    what: 'a valid PNG carrying an <img onerror> in a text chunk',
    name: 'statement.png',
    bytes: pngWithText('<img src=x onerror=window.__pwned=1>'),
  },
  {
    what: 'a JPEG whose comment segment holds an <svg onload>',
    name: 'statement.jpg',
    bytes: Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'),
      Buffer.from([0xff, 0xfe, 0x00, 0x24]),
      Buffer.from('<svg/onload=window.__pwned=1>//   ', 'latin1'),
      Buffer.from([0xff, 0xd9]),
    ]),
  },
  {
    what: 'a "BM" (bitmap) start followed by an HTML page',
    name: 'statement.bmp',
    bytes: Buffer.from(`BM<!DOCTYPE html><html>${SCRIPT}</html>`),
  },
  {
    what: 'a PNG with a javascript: link appended',
    name: 'statement.png',
    bytes: Buffer.concat([
      makePng({ width: 8, height: 8 }),
      Buffer.from('<a href="javascript:window.__pwned=1">x</a>'),
    ]),
  },
]

// a valid image under a name or a declared type that must never reach the disk or the response
const HOSTILE_NAMES: { name: string; contentType?: string }[] = [
  { name: '../../etc/passwd.png' },
  { name: '..\\..\\x.png' },
  { name: '/abs/x.png' },
  { name: 'C:\\Windows\\System32\\x.png' },
  { name: 'screenshots/../../../../escape.png' },
  { name: '..%2F..%2Fencoded.png' },
  { name: 'evil\u202Egnp.html' },
  { name: `${'a'.repeat(1000)}.png` },
  { name: 'statement.html', contentType: 'text/html' },
]

for (const dialect of DIALECTS) {
  describe(`${dialect}: upload attacks`, () => {
    let ctx: TestContext
    let cookie: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      cookie = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    function submitClaim({
      data = makeClaimData(),
      file,
    }: {
      data?: Record<string, unknown>
      file: { bytes: Buffer; name: string; contentType?: string }
    }) {
      return request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(data))
        .attach('screenshot', file.bytes, {
          filename: file.name,
          contentType: file.contentType ?? 'image/png',
        })
    }

    async function expectNothingStored(): Promise<void> {
      expect(await countClaims(ctx.db)).toBe(0)
      expect(await ctx.db.selectFrom('agreement_records').select('id').execute()).toEqual([])
      expect(listScreenshotFiles(ctx.dataDir)).toEqual([])
    }

    function expectRefusedAsNotAnImage(res: request.Response): void {
      expect(res.status).toBe(422)
      expect(res.body.error).toEqual({
        code: 'UPLOAD_NOT_IMAGE',
        message: `Bank Statement Screenshot: ${NOT_AN_IMAGE}`,
        fields: { screenshotFile: { __errors: [NOT_AN_IMAGE] } },
      })
    }

    /** Every file under DATA_DIR, relative to it, but the database and the agreement copies mailed to outbox/. */
    function filesInDataDir(): string[] {
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const full = path.join(dir, entry.name)
          return entry.isDirectory()
            ? walk(full)
            : [path.relative(ctx.dataDir, full).split(path.sep).join('/')]
        })
      // the database, the three keys and the PDF certificate are the server's own files
      const ownFiles = new Set([EVIDENCE_KEY_FILE, TWO_FACTOR_KEY_FILE, PAYMENTS_KEY_FILE, PDF_SIGNING_FILE])
      const files = walk(ctx.dataDir).filter(
        (file) => !file.startsWith(SQLITE_FILE_NAME) && !ownFiles.has(file),
      )
      // the copy is mailed after the 201, so it may or may not be there yet; its name is made by the server too
      const [mail, other] = [
        files.filter((f) => f.startsWith('outbox/')),
        files.filter((f) => !f.startsWith('outbox/')),
      ]
      for (const file of mail) expect(file).toMatch(/^outbox\/\.?\d{13}-[0-9a-f]{16}\.eml(\.tmp)?$/)
      return other
    }

    describe('a file that is not an image is refused whatever its name', () => {
      it.each(NOT_IMAGES)('answers 422 for $what, and stores nothing', async ({ name, bytes }) => {
        const res = await submitClaim({ file: { bytes, name } })

        expectRefusedAsNotAnImage(res)
        await expectNothingStored()
      })
    })

    describe('only the PNG and JPEG the form asks for are taken, by their bytes', () => {
      it.each(OTHER_IMAGES)('answers 422 for $what, and stores nothing', async ({ name, bytes }) => {
        const res = await submitClaim({ file: { bytes, name } })

        expectRefusedAsNotAnImage(res)
        await expectNothingStored()
      })

      it('takes a JPEG, stored under the extension its bytes give', async () => {
        await submitClaim({ file: { bytes: JPEG, name: 'statement.jpeg' } }).expect(201)

        expect(listScreenshotFiles(ctx.dataDir)).toEqual([expect.stringMatching(/\.jpg$/)])
      })
    })

    describe('a polyglot (image magic bytes plus markup) is refused', () => {
      it.each(POLYGLOTS)('answers 422 for $what, and stores nothing', async ({ name, bytes }) => {
        const res = await submitClaim({ file: { bytes, name } })

        expectRefusedAsNotAnImage(res)
        await expectNothingStored()
      })

      it('still accepts a real PNG followed by zero padding (no markup)', async () => {
        const bytes = Buffer.concat([makePng({ width: 8, height: 8 }), Buffer.alloc(4096)])

        await submitClaim({ file: { bytes, name: 'padded.png' } }).expect(201)

        expect(listScreenshotFiles(ctx.dataDir)).toEqual([expect.stringMatching(GENERATED_KEY)])
      })
    })

    describe('the name the browser gives a file is never used to store it', () => {
      it.each(HOSTILE_NAMES)(
        'stores a valid PNG named $name under a generated name inside DATA_DIR',
        async ({ name, contentType }) => {
          const candidates = [
            path.resolve(ctx.dataDir, 'screenshots', 'brigit-screenshots', name),
            path.resolve(ctx.dataDir, 'screenshots', name),
            path.resolve(ctx.dataDir, name),
            path.resolve(name),
          ].filter((file) => !fs.existsSync(file))

          const res = await submitClaim({ file: { bytes: PNG, name, contentType } })

          expect(res.status).toBe(201)
          const row = await ctx.db.selectFrom('claims').selectAll().executeTakeFirstOrThrow()
          expect(row.screenshot_key).toMatch(GENERATED_KEY)
          expect(row.screenshot_type).toBe('image/png')
          expect(filesInDataDir()).toEqual([`screenshots/${row.screenshot_key}`])
          expect(fs.readFileSync(path.join(ctx.dataDir, 'screenshots', row.screenshot_key))).toEqual(PNG)
          for (const file of candidates)
            expect({ file, exists: fs.existsSync(file) }).toEqual({ file, exists: false })
        },
      )

      it('answers 400 for a file name holding a NUL byte (a malformed part header), and stores nothing', async () => {
        const res = await submitClaim({ file: { bytes: PNG, name: 'x.png\0.html' } })

        expect(res.status).toBe(400)
        expect(res.body.error).toEqual({
          code: 'BAD_REQUEST',
          message: 'malformed multipart body: Malformed part header',
        })
        await expectNothingStored()
      })
    })

    describe('a stored screenshot is served to staff so that it can never run', () => {
      it.each([
        {
          what: 'a PNG sent as statement.html (text/html)',
          bytes: PNG,
          name: 'statement.html',
          contentType: 'text/html',
          mime: 'image/png',
          extension: 'png',
        },
        {
          what: 'a JPEG sent as photo.svg (image/svg+xml)',
          bytes: JPEG,
          name: 'photo.svg',
          contentType: 'image/svg+xml',
          mime: 'image/jpeg',
          extension: 'jpg',
        },
      ])(
        'answers $what with the type its bytes are, nosniff, a generated name, and a CSP that lets nothing run',
        async ({ bytes, name, contentType, mime, extension }) => {
          const created = await submitClaim({ file: { bytes, name, contentType } }).expect(201)

          const res = await request(ctx.app)
            .get(`/api/staff/claims/${created.body.id}/screenshot`)
            .set('Cookie', cookie)
            .buffer(true)
            .parse((stream, done) => {
              const chunks: Buffer[] = []
              stream.on('data', (chunk: Buffer) => chunks.push(chunk))
              stream.on('end', () => done(null, Buffer.concat(chunks)))
            })

          expect(res.status).toBe(200)
          expect(res.headers['content-type']).toBe(mime)
          expect(res.headers['x-content-type-options']).toBe('nosniff')
          // the name is made from the claim id and the sniffed type, never the one sent
          expect(res.headers['content-disposition']).toBe(
            `inline; filename="claim-${created.body.id}.${extension}"`,
          )
          const policy = res.headers['content-security-policy'] ?? ''
          expect(policy).toContain("default-src 'none'")
          expect(policy).toContain('sandbox')
          expect(policy).not.toContain('unsafe-inline')
          expect(res.headers['cross-origin-resource-policy']).toBe('same-origin')
          expect(res.body).toEqual(bytes)
        },
      )
    })

    describe('the signature must be a PNG data URL', () => {
      const svg = `<svg xmlns="http://www.w3.org/2000/svg">${SCRIPT}</svg>`
      it.each([
        {
          what: 'an SVG data URL with a script',
          value: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
        },
        { what: 'an SVG data URL, not base64', value: `data:image/svg+xml,${encodeURIComponent(svg)}` },
        {
          what: 'an SVG labelled image/png',
          value: `data:image/png;base64,${Buffer.from(svg).toString('base64')}`,
        },
        {
          what: 'a PNG with a script appended after IEND',
          value: pngDataUrl(Buffer.concat([makePng({ width: 4, height: 2 }), Buffer.from(SCRIPT)])),
        },
        { what: 'an HTML data URL', value: `data:text/html,${SCRIPT}` },
        { what: 'a javascript: URL', value: 'javascript:window.__pwned=1' },
      ])('answers 422 "Please provide your signature" for $what, and stores nothing', async ({ value }) => {
        const res = await submitClaim({
          data: makeClaimData({ signature: value }),
          file: { bytes: PNG, name: 'statement.png' },
        })

        expect(res.status).toBe(422)
        expect(res.body.error.code).toBe('VALIDATION_FAILED')
        expect(res.body.error.message).toBe(`Signature: ${SIGNATURE_REQUIRED}`)
        expect(res.body.error.fields.signature.__errors).toEqual([SIGNATURE_REQUIRED])
        await expectNothingStored()
      })
    })
  })
}
