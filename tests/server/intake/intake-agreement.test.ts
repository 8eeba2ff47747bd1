import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { localIsoDate } from '../../../src/agreement-context.ts'
import { createTestContext, DIALECTS, pngDataUrl, type TestContext } from '../support/helpers.ts'
import { pdfText } from '../support/pdf-text.ts'
import { linkMailsTo, openAgreementsByLink } from '../support/agreement-link.ts'

const CONTACT = { email: 'marta.diaz@example.com', phone: '(212) 555-0188' }

function intakeData(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin', 'chime'],
    feesIncurred: ['Subscription Fee'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Marta',
    lastName: 'Díaz',
    email: CONTACT.email,
    phone: CONTACT.phone,
    address: '5 Main St',
    city: 'Albany',
    state: 'NY',
    zipCode: '12207',
    signature: pngDataUrl(),
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the agreement signed on the main form`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await ctx.db.deleteFrom('intake_cases').execute()
      await ctx.db.deleteFrom('form_submissions').execute()
      await ctx.db.deleteFrom('rate_limits').execute()
      await ctx.db.deleteFrom('agreement_links').execute()
    })

    function fileIntake(lang?: string, data = intakeData()) {
      const query = new URLSearchParams({ agreementDate: localIsoDate(), ...(lang ? { lang } : {}) })
      return request(ctx.app).post(`/api/intake?${query}`).send(data)
    }

    it('is stored with the intake: the agreement the consent names, filled in and hashed', async () => {
      await fileIntake().expect(201)

      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect(row.agreement_template).toBe('full')
      expect(row.agreement_html).toContain('Attorney-Client Contingency Fee Agreement')
      expect(row.agreement_html).toContain('your claims against Earnin and Chime')
      expect(row.agreement_html).toContain('Marta Díaz')
      // the signature image itself (Handlebars writes the data URL's "=" padding as &#x3D;)
      expect(row.agreement_html).toContain(`src="${row.signature.replace(/=+$/, '')}`)
      expect(row.agreement_sha256).toBe(crypto.createHash('sha256').update(row.agreement_html).digest('hex'))
    })

    it('is found at /view-agreement by e-mail and phone, like a Step 2 agreement', async () => {
      const created = await fileIntake().expect(201)
      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()

      const { agreements } = await openAgreementsByLink(ctx, CONTACT)

      expect(agreements).toEqual([
        {
          kind: 'intake',
          intakeId: created.body.id,
          appName: 'Earnin and Chime',
          signedAt: created.body.createdAt,
          firstName: 'Marta',
          lastName: 'Díaz',
          email: CONTACT.email,
          phoneNumber: CONTACT.phone,
          signatureMethod: 'drawn',
          typedSignature: null,
          html: row.agreement_html,
          address: '5 Main St, Albany, NY 12207',
          confirmedAt: null,
          disownedAt: null,
        },
      ])
      const mailed = linkMailsTo(ctx.dataDir, CONTACT.email).length
      await request(ctx.app)
        .post('/api/agreements/lookup')
        .send({ ...CONTACT, phone: '(212) 555-0199' })
        .expect(202)
      await ctx.agreementLinks.settled()
      expect(linkMailsTo(ctx.dataDir, CONTACT.email)).toHaveLength(mailed)
    })

    it('downloads as HTML and PDF with the signed text and its audit details', async () => {
      const { body } = await fileIntake().expect(201)
      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      const { downloadKey: key } = await openAgreementsByLink(ctx, CONTACT)

      const html = await request(ctx.app)
        .post('/api/agreements/download')
        .send({ key, intakeId: body.id, format: 'html' })
        .expect(200)
      expect(html.text).toContain(row.agreement_html)
      expect(html.text).toContain(`<strong>Main form submission ID:</strong> ${body.id}`)
      expect(html.text).toContain(`<strong>SHA-256 of the signed HTML:</strong> ${row.agreement_sha256}`)

      const pdf = await request(ctx.app)
        .post('/api/agreements/download')
        .send({ key, intakeId: body.id, format: 'pdf' })
        .responseType('blob')
        .expect(200)
      const text = await pdfText(pdf.body as Buffer)
      expect(text).toContain('Earnin and Chime')
      expect(text).toContain(row.agreement_sha256)
    })

    it("gives nobody else's intake: the id must belong to the e-mail and phone the key was given for", async () => {
      const { body } = await fileIntake().expect(201)
      const other = { email: 'other@example.com', phone: '(646) 555-0100' }
      await fileIntake(undefined, intakeData(other)).expect(201)
      const { downloadKey: othersKey } = await openAgreementsByLink(ctx, other)

      await request(ctx.app)
        .post('/api/agreements/download')
        .send({ key: othersKey, intakeId: body.id, format: 'html' })
        .expect(404)
      const both = await request(ctx.app)
        .post('/api/agreements/download')
        .send({ key: othersKey, intakeId: body.id, claimId: 1, format: 'html' })
        .expect(400)
      expect(both.body.error.message).toMatch(/"claimId".*or "intakeId"/)
    })

    it('is signed and downloaded in Spanish when the claimant used Spanish', async () => {
      const { body } = await fileIntake('es').expect(201)
      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect(row.locale).toBe('es')
      expect(row.agreement_html).toContain('Earnin y Chime')

      // the page is in English now; the document stays in the language it was signed in
      const { downloadKey: key } = await openAgreementsByLink(ctx, CONTACT)
      const html = await request(ctx.app)
        .post('/api/agreements/download')
        .send({ key, intakeId: body.id, format: 'html' })
        .expect(200)
      expect(html.text).toContain('<html lang="es">')
      expect(html.text).toContain('Datos de auditoría')
      expect(html.text).toContain('<strong>Idioma:</strong> Español')
    })
  })
}
