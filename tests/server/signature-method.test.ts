import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  makeClaimData,
  pngDataUrl,
  readFixture,
  type TestContext,
} from './helpers.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const CONTACT = { email: 'ana.lopez@example.com', phone: '(555) 223-4567' }

async function pdfText(pdf: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(pdf), verbosity: 0 }).promise
  const texts: string[] = []
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent()
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await document.destroy()
  return texts.join(' ')
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: which way a claimant signed`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      await ctx.db.deleteFrom('intake_cases').execute()
      await ctx.db.deleteFrom('form_submissions').execute()
    })

    function fileClaim(signing: Record<string, unknown>) {
      const data = makeClaimData({ email: CONTACT.email, phoneNumber: CONTACT.phone, ...signing })
      return request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(data))
        .attach('screenshot', SCREENSHOT, 'statement.png')
    }

    it('keeps a typed signature with the name as typed, and says so in both downloads', async () => {
      const created = await fileClaim({ signatureMethod: 'typed', typedSignature: '  Ana López ' }).expect(
        201,
      )

      const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
      expect(record.signature_method).toBe('typed')
      expect(record.typed_signature).toBe('Ana López')
      expect(record.signature).toMatch(/^data:image\/png;base64,/)

      const download = (format: string) =>
        request(ctx.app)
          .post('/api/agreements/download')
          .send({ ...CONTACT, claimId: created.body.id, format })
      const html = await download('html').expect(200)
      expect(html.text).toContain(
        '<strong>Signed by:</strong> typing the full name &quot;Ana López&quot;, shown in a signature style',
      )
      const pdf = await download('pdf').responseType('blob').expect(200)
      expect(await pdfText(pdf.body as Buffer)).toContain('typing the full name "Ana López"')
    })

    it('keeps a drawn signature as drawn, also when the page does not say (an older page)', async () => {
      await fileClaim({ signatureMethod: 'drawn' }).expect(201)
      await fileClaim({}).expect(409)
      const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
      expect(record.signature_method).toBe('drawn')
      expect(record.typed_signature).toBeNull()
    })

    it.each([
      [{ signatureMethod: 'typed' }, 'typedSignature'],
      [{ signatureMethod: 'typed', typedSignature: '   ' }, 'typedSignature'],
      [{ signatureMethod: 'typed', typedSignature: 'x'.repeat(201) }, 'typedSignature'],
      [{ signatureMethod: 'typed', typedSignature: 'Ana\u0000López' }, 'typedSignature'],
      [{ signatureMethod: 'drawn', typedSignature: 'Ana López' }, 'typedSignature'],
      [{ signatureMethod: 'stamped' }, 'signatureMethod'],
    ])('refuses %j with 422 naming %s, and stores nothing', async (signing, field) => {
      const res = await fileClaim(signing).expect(422)
      expect(Object.keys(res.body.error.fields)).toEqual([field])
      expect(res.body.error.message).toContain(`"${field}"`)
      expect(await ctx.db.selectFrom('claims').selectAll().execute()).toEqual([])
    })

    it('keeps how the main form was signed, and its download says so', async () => {
      const res = await request(ctx.app)
        .post('/api/intake')
        .send({
          cashAdvanceApps: ['earnin'],
          feesIncurred: ['Tips'],
          isOver18: true,
          isActiveMilitary: false,
          hasBankruptcy: false,
          firstName: 'Ana',
          lastName: 'López',
          email: CONTACT.email,
          phone: CONTACT.phone,
          address: '1 Main St',
          city: 'Reno',
          state: 'NV',
          zipCode: '89501',
          signature: pngDataUrl(),
          consentAgreed: true,
          communicationsConsent: true,
          signatureMethod: 'typed',
          typedSignature: 'Ana López',
        })
        .expect(201)
      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect([row.signature_method, row.typed_signature]).toEqual(['typed', 'Ana López'])
      const html = await request(ctx.app)
        .post('/api/agreements/download')
        .send({ ...CONTACT, intakeId: res.body.id, format: 'html' })
        .expect(200)
      expect(html.text).toContain('typing the full name &quot;Ana López&quot;')
    })
  })
}
