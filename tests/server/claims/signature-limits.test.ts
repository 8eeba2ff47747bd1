import zlib from 'node:zlib'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePng, pngChunk } from '../../../scripts/seed/png.ts'
import { PNG_SIGNATURE } from '../../../server/uploads/png-image.ts'
import {
  countClaims,
  createTestContext,
  DIALECTS,
  makeClaimData,
  pngDataUrl,
  type TestContext,
} from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

const TOO_LARGE =
  'the signature image is larger than a signature pad makes (at most 3000 × 1000 pixels, 8 bits a channel, 8 MB unpacked)'

/** A valid RGB PNG of 16 bits a channel, which no signature pad makes. */
function sixteenBitPng(): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(4, 0)
  header.writeUInt32BE(2, 4)
  header[8] = 16
  header[9] = 2
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc((1 + 4 * 6) * 2))),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

describe.each(DIALECTS)('%s: a signature larger than a signature pad makes', (dialect) => {
  let ctx: TestContext
  const huge = pngDataUrl(makePng({ width: 4096, height: 4096 }))
  beforeAll(async () => {
    ctx = await createTestContext(dialect)
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it.each([
    ['4096 × 4096', huge],
    ['3001 × 10', pngDataUrl(makePng({ width: 3001, height: 10 }))],
    ['16 bits a channel', pngDataUrl(sixteenBitPng())],
  ])(
    'refuses a claim signed with a %s PNG with 422 naming the limits, and stores nothing',
    async (_, signature) => {
      const res = await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(makeClaimData({ signature })))
        .attach('screenshot', makePng({ width: 20, height: 20 }), 'statement.png')
        .expect(422)
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: `Signature: ${TOO_LARGE}` })
      expect(await countClaims(ctx.db)).toBe(0)
    },
  )

  it('takes the largest signature a pad makes (2 × a 704 px wide pad, 176 px high)', async () => {
    await request(ctx.app)
      .post('/api/forms/brigit/submissions')
      .field(
        'data',
        JSON.stringify(makeClaimData({ signature: pngDataUrl(makePng({ width: 1408, height: 352 })) })),
      )
      .attach('screenshot', makePng({ width: 20, height: 20 }), 'statement.png')
      .expect(201)
  })

  it('refuses an intake signed with a 4096 × 4096 PNG the same way', async () => {
    const res = await request(ctx.app)
      .post('/api/intake')
      .send(makeIntakeData({ signature: huge }))
      .expect(422)
    expect(res.body.error.message).toContain(TOO_LARGE)
    expect(await ctx.db.selectFrom('form_submissions').select('id').execute()).toEqual([])
  })
})
