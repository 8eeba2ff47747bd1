import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  LINK_INCOMPLETE_MESSAGE,
  LINK_SENT_MESSAGE,
  LOOKUP_RATE_LIMITED_MESSAGE,
} from '../../../src/lookup-messages.ts'
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
  linkIn,
  linkMailsTo,
  linkTokenIn,
  openAgreementsByLink,
} from '../support/agreement-link.ts'

const SCREENSHOT = readFixture('bank-statement.png')

for (const dialect of DIALECTS) {
  describe(`${dialect}: a new link from a spent one`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(makeClaimData(ANA)))
        .field('agreementDate', new Date().toISOString().slice(0, 10))
        .attach('screenshot', SCREENSHOT, 'statement.png')
        .expect(201)
    })

    function resend(token: unknown, lang?: string) {
      return request(ctx.app)
        .post('/api/agreements/resend')
        .query(lang ? { lang } : {})
        .send({ token })
    }

    /** Ana's link, opened once (as a mail app that scans links does): its token is spent. */
    async function spentToken(): Promise<string> {
      return (await openAgreementsByLink(ctx, ANA_CONTACT)).token
    }

    async function lookup() {
      await request(ctx.app).post('/api/agreements/lookup').send(ANA_CONTACT).expect(202)
    }

    it('e-mails a new link to the stored address for a link already opened, with the lookup’s answer', async () => {
      const spent = await spentToken()
      const before = linkMailsTo(ctx.dataDir, ANA.email).length

      const res = await resend(spent)
      await ctx.agreementLinks.settled()

      expect(res.status).toBe(202)
      expect(res.body).toEqual({ message: LINK_SENT_MESSAGE })
      expect(res.headers['cache-control']).toBe('no-store')
      const mails = linkMailsTo(ctx.dataDir, ANA.email)
      expect(mails).toHaveLength(before + 1)
      const fresh = linkTokenIn(mails.at(-1)!.eml)!
      expect(fresh).not.toBe(spent)
      const opened = await request(ctx.app).post('/api/agreements/open').send({ token: fresh })
      expect(opened.status).toBe(200)
      expect(opened.body.agreements[0].email).toBe(ANA.email)
    })

    it('answers an unknown link alike and e-mails nobody', async () => {
      const spent = await spentToken()
      const before = linkMailsTo(ctx.dataDir, ANA.email).length

      const known = await resend(spent)
      const unknown = await resend(crypto.randomBytes(32).toString('base64url'))
      await ctx.agreementLinks.settled()

      expect(unknown.status).toBe(known.status)
      expect(unknown.body).toEqual(known.body)
      expect(unknown.headers['cache-control']).toBe(known.headers['cache-control'])
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(before + 1)
    })

    it('sends one new link per spent link, however often the spent one asks', async () => {
      const spent = await spentToken()
      const before = linkMailsTo(ctx.dataDir, ANA.email).length

      const answers = await Promise.all([resend(spent), resend(spent), resend(spent)])
      await ctx.agreementLinks.settled()
      const later = await resend(spent)
      await ctx.agreementLinks.settled()

      expect([...answers, later].map((res) => res.status)).toEqual([202, 202, 202, 202])
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(before + 1)
    })

    it('sends nothing for a link not yet opened, which still opens', async () => {
      await lookup()
      await ctx.agreementLinks.settled()
      const unused = linkTokenIn(linkMailsTo(ctx.dataDir, ANA.email)[0]!.eml)!

      expect((await resend(unused)).status).toBe(202)
      await ctx.agreementLinks.settled()

      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(1)
      await request(ctx.app).post('/api/agreements/open').send({ token: unused }).expect(200)
    })

    it('sends a new link for a link past its 30 minutes that is still stored', async () => {
      await lookup()
      await ctx.agreementLinks.settled()
      const expired = linkTokenIn(linkMailsTo(ctx.dataDir, ANA.email)[0]!.eml)!
      await ctx.db
        .updateTable('agreement_links')
        .set({ expires_at: Date.now() - 1000 })
        .execute()

      await resend(expired).expect(202)
      await ctx.agreementLinks.settled()

      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(2)
    })

    it('holds the address to three unused links, as the lookup does', async () => {
      const spent = await spentToken()
      for (let n = 0; n < 3; n++) await lookup()
      await ctx.agreementLinks.settled()
      const before = linkMailsTo(ctx.dataDir, ANA.email).length
      expect(before).toBe(4)

      await resend(spent).expect(202)
      await ctx.agreementLinks.settled()

      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(before)
    })

    it('keeps only the new link’s SHA-256, and removes the spent link’s row', async () => {
      const spent = await spentToken()

      await resend(spent).expect(202)
      await ctx.agreementLinks.settled()

      const fresh = linkTokenIn(linkMailsTo(ctx.dataDir, ANA.email).at(-1)!.eml)!
      const sha256 = (token: string) => crypto.createHash('sha256').update(token).digest('hex')
      const links = await ctx.db
        .selectFrom('agreement_links')
        .select(['token_hash', 'used_at'])
        .where('purpose', '=', 'link')
        .execute()
      expect(links).toEqual([{ token_hash: sha256(fresh), used_at: null }])
      const stored = JSON.stringify(await ctx.db.selectFrom('agreement_links').selectAll().execute())
      expect(stored).not.toContain(fresh)
      expect(stored).not.toContain(spent)
    })

    it('writes the new link in Spanish for a Spanish page, and answers in Spanish', async () => {
      const spent = await spentToken()

      const res = await resend(spent, 'es')
      await ctx.agreementLinks.settled()

      expect(res.body.message).toBe(
        'Si tenemos un acuerdo con estos datos, hemos enviado un enlace a ese correo electrónico. Funciona una sola vez, durante 30 minutos.',
      )
      expect(linkIn(linkMailsTo(ctx.dataDir, ANA.email).at(-1)!.eml)).toMatch(
        /\/view-agreement\?lang=es#link=[A-Za-z0-9_-]{43}$/,
      )
    })

    it('refuses a truncated link with 400, and one from another site with 403, sending nothing', async () => {
      const spent = await spentToken()
      const before = linkMailsTo(ctx.dataDir, ANA.email).length

      const truncated = await resend(spent.slice(0, 20))
      const crossSite = await request(ctx.app)
        .post('/api/agreements/resend')
        .set('Origin', 'https://evil.example')
        .send({ token: spent })
      await ctx.agreementLinks.settled()

      expect(truncated.status).toBe(400)
      expect(truncated.body.error.message).toBe(LINK_INCOMPLETE_MESSAGE)
      expect(crossSite.status).toBe(403)
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(before)
    })
  })

  describe(`${dialect}: a new link from a spent one, under the lookup's limits`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { publicLimits: { perAddress: 2, globalPerMinute: 1000 } })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('counts with the lookups of the same client address: past the limit, 429 and nothing sent', async () => {
      await clearClaims(ctx)
      await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(makeClaimData(ANA)))
        .field('agreementDate', new Date().toISOString().slice(0, 10))
        .attach('screenshot', SCREENSHOT, 'statement.png')
        .expect(201)
      const spent = (await openAgreementsByLink(ctx, ANA_CONTACT)).token
      await request(ctx.app).post('/api/agreements/lookup').send(ANA_CONTACT).expect(202)
      await ctx.agreementLinks.settled()
      const before = linkMailsTo(ctx.dataDir, ANA.email).length

      const refused = await request(ctx.app).post('/api/agreements/resend').send({ token: spent })
      await ctx.agreementLinks.settled()

      expect(refused.status).toBe(429)
      expect(refused.body.error).toEqual({ code: 'RATE_LIMITED', message: LOOKUP_RATE_LIMITED_MESSAGE })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(before)
      // from another client address the same spent link still gets its one new link
      await request(ctx.app)
        .post('/api/agreements/resend')
        .set('X-Forwarded-For', '198.51.100.7')
        .send({ token: spent })
        .expect(202)
      await ctx.agreementLinks.settled()
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(before + 1)
    })
  })
}
