import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { DOWNLOAD_KEY_EXPIRED_MESSAGE } from '../../../src/lookup-messages.ts'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  makeClaimData,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import {
  ANA,
  ANA_CONTACT,
  linkMailsTo,
  linkTokenIn,
  openAgreementsByLink,
} from '../support/agreement-link.ts'

const SCREENSHOT = readFixture('bank-statement.png')

for (const dialect of DIALECTS) {
  describe(`${dialect}: closing an opened link`, () => {
    let ctx: TestContext
    let claimId: number

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      const claim = await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(makeClaimData(ANA)))
        .field('agreementDate', new Date().toISOString().slice(0, 10))
        .attach('screenshot', SCREENSHOT, 'statement.png')
        .expect(201)
      claimId = claim.body.id as number
    })

    function close(key: unknown) {
      return request(ctx.app).post('/api/agreements/close').send({ key })
    }

    function download(key: string) {
      return request(ctx.app).post('/api/agreements/download').send({ key, claimId, format: 'html' })
    }

    it('ends the download key at once: its downloads are refused as an expired key’s', async () => {
      const { downloadKey } = await openAgreementsByLink(ctx, ANA_CONTACT)
      await download(downloadKey).expect(200)

      const res = await close(downloadKey)

      expect(res.status).toBe(204)
      expect(res.headers['cache-control']).toBe('no-store')
      const refused = await download(downloadKey)
      expect(refused.status).toBe(410)
      expect(refused.body.error).toEqual({ code: 'LINK_EXPIRED', message: DOWNLOAD_KEY_EXPIRED_MESSAGE })
      expect(
        await ctx.db.selectFrom('agreement_links').selectAll().where('purpose', '=', 'download').execute(),
      ).toEqual([])
    })

    it('answers an unknown or already closed key alike, and leaves other keys working', async () => {
      const first = await openAgreementsByLink(ctx, ANA_CONTACT)
      const second = await openAgreementsByLink(ctx, ANA_CONTACT)

      await close(first.downloadKey).expect(204)
      await close(first.downloadKey).expect(204)
      await close(crypto.randomBytes(32).toString('base64url')).expect(204)

      await download(second.downloadKey).expect(200)
    })

    it('does not spend or remove an e-mailed link sent as a key', async () => {
      await request(ctx.app).post('/api/agreements/lookup').send(ANA_CONTACT).expect(202)
      await ctx.agreementLinks.settled()
      const token = linkTokenIn(linkMailsTo(ctx.dataDir, ANA.email)[0]!.eml)!

      await close(token).expect(204)

      await request(ctx.app).post('/api/agreements/open').send({ token }).expect(200)
    })

    it('refuses a missing or malformed key with 400, and a close from another site with 403', async () => {
      const { downloadKey } = await openAgreementsByLink(ctx, ANA_CONTACT)

      const missing = await close(undefined)
      const crossSite = await request(ctx.app)
        .post('/api/agreements/close')
        .set('Origin', 'https://evil.example')
        .send({ key: downloadKey })

      expect(missing.status).toBe(400)
      expect(crossSite.status).toBe(403)
      await download(downloadKey).expect(200)
    })
  })
}
