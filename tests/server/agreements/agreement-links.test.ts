import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  DOWNLOAD_KEY_EXPIRED_MESSAGE,
  LINK_INCOMPLETE_MESSAGE,
  LINK_SENT_MESSAGE,
  LINK_USED_OR_EXPIRED_MESSAGE,
} from '../../../src/lookup-messages.ts'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import {
  ANA,
  ANA_CONTACT,
  linkIn,
  linkMailsTo,
  linkTokenIn,
  mailsTo,
  openAgreementsByLink,
  plainTextOf,
} from '../support/agreement-link.ts'
import { pdfText } from '../support/pdf-text.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const THIRTY_MINUTES = 30 * 60_000

for (const dialect of DIALECTS) {
  describe(`${dialect}: agreements by one-time link`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    /** Ana's claim as the form files it, with the date it prints. */
    const anasClaim = () => ({
      app: 'brigit',
      fields: ANA,
      agreementDate: new Date().toISOString().slice(0, 10),
      screenshot: SCREENSHOT,
    })

    function lookup(body: Record<string, unknown>, lang?: string) {
      return request(ctx.app)
        .post('/api/agreements/lookup')
        .query(lang ? { lang } : {})
        .send(body)
    }

    function open(token: unknown, lang?: string) {
      return request(ctx.app)
        .post('/api/agreements/open')
        .query(lang ? { lang } : {})
        .send({ token })
    }

    function download(body: Record<string, unknown>) {
      return request(ctx.app).post('/api/agreements/download').send(body)
    }

    /** Asks for Ana's link and gives the token her e-mail carries. */
    async function askForToken(contact = ANA_CONTACT, lang?: string): Promise<string> {
      const seen = linkMailsTo(ctx.dataDir, ANA.email).length
      expect((await lookup(contact, lang)).status).toBe(202)
      await ctx.agreementLinks.settled()
      const mails = linkMailsTo(ctx.dataDir, ANA.email)
      expect(mails).toHaveLength(seen + 1)
      return linkTokenIn(mails.at(-1)!.eml)!
    }

    it('answers a lookup that matches and one that does not alike, and e-mails a link for the first only', async () => {
      await fileClaim(ctx, anasClaim())

      const matching = await lookup(ANA_CONTACT)
      const wrongPhone = await lookup({ email: ANA.email, phone: '(555) 765-4321' })
      const unknown = await lookup({ email: 'nobody@example.com', phone: ANA.phoneNumber })
      await ctx.agreementLinks.settled()

      for (const res of [matching, wrongPhone, unknown]) {
        expect(res.status).toBe(202)
        expect(res.body).toEqual({ message: LINK_SENT_MESSAGE })
        expect(res.headers['cache-control']).toBe('no-store')
      }
      const [mail] = linkMailsTo(ctx.dataDir, ANA.email)
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(1)
      expect(linkMailsTo(ctx.dataDir, 'nobody@example.com')).toEqual([])
      expect(mail!.eml).toMatch(/^Subject: Your link to view your signed agreements$/m)
      const text = plainTextOf(mail!.eml)
      expect(text).toContain('Hello Ana Lopez,')
      expect(text).toContain('It works once, within 30 minutes')
      // the agreements themselves are not in the e-mail: only the link opens them
      expect(mail!.eml).not.toMatch(/filename=/)
    })

    it('sends the link to the address stored with the agreement, however the lookup wrote it', async () => {
      await fileClaim(ctx, anasClaim())

      await lookup({ email: '  ANA.Lopez@EXAMPLE.com ', phone: '555.223.4567' })
      await ctx.agreementLinks.settled()

      expect(mailsTo(ctx.dataDir, ANA.email).map(({ eml }) => /^To: (.*)$/m.exec(eml)?.[1])).toContain(
        ANA.email,
      )
      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(1)
    })

    it('puts the token in the link’s fragment, and stores only its SHA-256', async () => {
      await fileClaim(ctx, anasClaim())

      const token = await askForToken()

      const link = linkIn(linkMailsTo(ctx.dataDir, ANA.email)[0]!.eml)!
      expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/view-agreement#link=[A-Za-z0-9_-]{43}$/)
      const rows = await ctx.db.selectFrom('agreement_links').selectAll().execute()
      expect(rows).toHaveLength(1)
      expect(rows[0]!.token_hash).toBe(crypto.createHash('sha256').update(token).digest('hex'))
      expect(JSON.stringify(rows)).not.toContain(token)
      expect(Number(rows[0]!.expires_at) - Number(rows[0]!.created_at)).toBe(THIRTY_MINUTES)
    })

    it('opens the agreements once: a second open is refused with 410 and a clear message', async () => {
      const claim = await fileClaim(ctx, anasClaim())
      const token = await askForToken()

      const first = await open(token)
      const second = await open(token)

      expect(first.status).toBe(200)
      expect(first.body.agreements.map((a: { claimId: number }) => a.claimId)).toEqual([claim.id])
      expect(first.body.downloadKey).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const downloadsFor = Date.parse(first.body.downloadsUntil) - Date.now()
      expect(downloadsFor).toBeGreaterThan(THIRTY_MINUTES - 60_000)
      expect(downloadsFor).toBeLessThanOrEqual(THIRTY_MINUTES)
      expect(second.status).toBe(410)
      expect(second.body.error).toEqual({ code: 'LINK_EXPIRED', message: LINK_USED_OR_EXPIRED_MESSAGE })
    })

    it('lets only one of two opens at the same moment have the agreements', async () => {
      await fileClaim(ctx, anasClaim())
      const token = await askForToken()

      const answers = await Promise.all([open(token), open(token), open(token)])

      expect(answers.map((res) => res.status).sort()).toEqual([200, 410, 410])
    })

    it('refuses a link 30 minutes after it was sent', async () => {
      await fileClaim(ctx, anasClaim())
      const token = await askForToken()
      // as if sent 30 minutes and one second ago
      await ctx.db
        .updateTable('agreement_links')
        .set({ created_at: Date.now() - THIRTY_MINUTES - 1000, expires_at: Date.now() - 1000 })
        .execute()

      const res = await open(token)

      expect(res.status).toBe(410)
      expect(res.body.error.message).toBe(LINK_USED_OR_EXPIRED_MESSAGE)
    })

    it('answers a truncated or unknown link with a clear 4xx, never the agreements', async () => {
      await fileClaim(ctx, anasClaim())
      const token = await askForToken()

      const truncated = await open(token.slice(0, 20))
      const unknown = await open(crypto.randomBytes(32).toString('base64url'))

      expect(truncated.status).toBe(400)
      expect(truncated.body.error.message).toBe(LINK_INCOMPLETE_MESSAGE)
      expect(unknown.status).toBe(410)
      expect(unknown.body.agreements).toBeUndefined()
      expect((await open(token)).status).toBe(200)
    })

    it('speaks Spanish to a Spanish page: the e-mail, its link and the refusal', async () => {
      await fileClaim(ctx, anasClaim())

      const token = await askForToken(ANA_CONTACT, 'es')

      const eml = linkMailsTo(ctx.dataDir, ANA.email)[0]!.eml
      expect(linkIn(eml)).toMatch(/\/view-agreement\?lang=es#link=/)
      expect(plainTextOf(eml)).toContain('Funciona una sola vez, durante 30 minutos')
      expect((await lookup(ANA_CONTACT, 'es')).body.message).toBe(
        'Si tenemos un acuerdo con estos datos, hemos enviado un enlace a ese correo electrónico. Funciona una sola vez, durante 30 minutos.',
      )
      await open(token, 'es').expect(200)
      expect((await open(token, 'es')).body.error.message).toBe(
        'Este enlace ya se usó o ha caducado. Pida uno nuevo abajo.',
      )
    })

    it('downloads the HTML and the PDF with the key the link gave, and nothing without it', async () => {
      const claim = await fileClaim(ctx, anasClaim())
      const { downloadKey } = await openAgreementsByLink(ctx, ANA_CONTACT)
      const wanted = { claimId: claim.id as number }

      const html = await download({ key: downloadKey, ...wanted, format: 'html' })
      const pdf = await download({ key: downloadKey, ...wanted, format: 'pdf' }).responseType('blob')
      const contactOnly = await download({ ...ANA_CONTACT, ...wanted, format: 'html' })
      const madeUp = await download({
        key: crypto.randomBytes(32).toString('base64url'),
        ...wanted,
        format: 'html',
      })

      expect(html.status).toBe(200)
      expect(html.text).toContain('Ana Lopez')
      expect(pdf.status).toBe(200)
      expect(await pdfText(pdf.body as Buffer)).toContain('Ana Lopez')
      expect(contactOnly.status).toBe(400)
      expect(madeUp.status).toBe(410)
      expect(madeUp.body.error.message).toBe(DOWNLOAD_KEY_EXPIRED_MESSAGE)
    })

    it('refuses the download key 30 minutes after the link was opened', async () => {
      const claim = await fileClaim(ctx, anasClaim())
      const { downloadKey } = await openAgreementsByLink(ctx, ANA_CONTACT)
      await ctx.db
        .updateTable('agreement_links')
        .set({ expires_at: Date.now() - 1000 })
        .where('purpose', '=', 'download')
        .execute()

      const res = await download({ key: downloadKey, claimId: claim.id, format: 'html' })

      expect(res.status).toBe(410)
      expect(res.body.error).toEqual({ code: 'LINK_EXPIRED', message: DOWNLOAD_KEY_EXPIRED_MESSAGE })
    })

    it('sends at most three unused links to one address, however often it is asked', async () => {
      await fileClaim(ctx, anasClaim())

      // at once: each lookup's link is made in the background, so these overlap as one after another do
      const answers = await Promise.all(Array.from({ length: 8 }, () => lookup(ANA_CONTACT)))
      expect(answers.map((res) => res.status)).toEqual(Array(8).fill(202))
      await ctx.agreementLinks.settled()

      expect(linkMailsTo(ctx.dataDir, ANA.email)).toHaveLength(3)
    })

    it('removes expired links and keys, which still hold a contact', async () => {
      await fileClaim(ctx, anasClaim())
      await openAgreementsByLink(ctx, ANA_CONTACT)
      await askForToken()
      expect(await ctx.db.selectFrom('agreement_links').selectAll().execute()).toHaveLength(3)

      await ctx.agreementLinks.pruneNow(Date.now() + THIRTY_MINUTES + 1000)

      expect(await ctx.db.selectFrom('agreement_links').selectAll().execute()).toEqual([])
    })

    it('refuses a link opened from another site (403), as every public POST', async () => {
      await fileClaim(ctx, anasClaim())
      const token = await askForToken()

      const res = await request(ctx.app)
        .post('/api/agreements/open')
        .set('Origin', 'https://evil.example')
        .send({ token })

      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('CROSS_SITE_REQUEST')
      expect((await open(token)).status).toBe(200)
    })
  })

  describe(`${dialect}: the link's origin`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { publicUrl: 'https://claims.example-firm.com' })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('is PUBLIC_URL when set, whatever Host header the lookup came with', async () => {
      await fileClaim(ctx, {
        app: 'brigit',
        fields: ANA,
        agreementDate: new Date().toISOString().slice(0, 10),
        screenshot: SCREENSHOT,
      })

      await request(ctx.app)
        .post('/api/agreements/lookup')
        .set('Host', 'evil.example')
        .send(ANA_CONTACT)
        .expect(202)
      await ctx.agreementLinks.settled()

      expect(linkIn(linkMailsTo(ctx.dataDir, ANA.email)[0]!.eml)).toMatch(
        /^https:\/\/claims\.example-firm\.com\/view-agreement#link=/,
      )
    })
  })
}
