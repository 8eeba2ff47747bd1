import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  makeClaimData,
  readFixture,
  type TestContext,
} from '../support/helpers.ts'
import { postClaim } from '../support/claims.ts'
import { pdfText } from '../support/pdf-text.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { findAgreementsByLink, openAgreementsByLink } from '../support/agreement-link.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const CONTACT = { email: 'ana.lopez@example.com', phone: '(555) 223-4567' }
// the PDF's audit page prints each label above its value
const TYPED_LINE = 'Signed by typing the full name "Ana López", shown in a signature style'
const DRAWN_LINE = 'Signed by drawing the signature on the screen'

/** Ways of signing the server must refuse, and the field its 422 names. */
const REFUSED: [Record<string, string>, string][] = [
  [{ signatureMethod: 'typed' }, 'typedSignature'],
  [{ signatureMethod: 'typed', typedSignature: '   ' }, 'typedSignature'],
  [{ signatureMethod: 'typed', typedSignature: 'x'.repeat(201) }, 'typedSignature'],
  [{ signatureMethod: 'typed', typedSignature: 'Ana\u0000López' }, 'typedSignature'],
  [{ signatureMethod: 'typed', typedSignature: 'Ana\nLópez' }, 'typedSignature'],
  [{ signatureMethod: 'typed', typedSignature: 'Ana\u0085López' }, 'typedSignature'],
  [{ signatureMethod: 'drawn', typedSignature: 'Ana López' }, 'typedSignature'],
  [{ typedSignature: 'Ana López' }, 'typedSignature'],
  [{ signatureMethod: 'stamped' }, 'signatureMethod'],
  [{ signatureMethod: 'Typed', typedSignature: 'Ana López' }, 'signatureMethod'],
]

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
      await ctx.db.deleteFrom('rate_limits').execute()
    })

    /** A Brigit claim with the signing fields beside "data", as the form sends them. */
    const sendClaim = (signing: Record<string, string>, data = makeClaimData({ email: CONTACT.email })) =>
      postClaim(ctx.app, {
        app: 'brigit',
        data: { ...data, phoneNumber: CONTACT.phone },
        signing,
        screenshot: SCREENSHOT,
      })

    function fileIntake(signing: Record<string, unknown>) {
      const data = makeIntakeData({ firstName: 'Ana', lastName: 'López', ...CONTACT, ...signing })
      return request(ctx.app).post('/api/intake').send(data)
    }

    async function downloads(agreement: { claimId: number } | { intakeId: number }) {
      const { downloadKey: key } = await openAgreementsByLink(ctx, CONTACT)
      const download = (format: string) =>
        request(ctx.app)
          .post('/api/agreements/download')
          .send({ key, ...agreement, format })
      const html = (await download('html').expect(200)).text
      const pdf = await download('pdf').responseType('blob').expect(200)
      return { html, pdf: await pdfText(pdf.body as Buffer) }
    }

    async function lookedUp() {
      return (await findAgreementsByLink(ctx, CONTACT)).map(({ signatureMethod, typedSignature }) => ({
        signatureMethod,
        typedSignature,
      }))
    }

    it('stores a typed claim signature as its image and the name as typed, trimmed', async () => {
      await sendClaim({ signatureMethod: 'typed', typedSignature: '  Ana López ' }).expect(201)

      const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
      expect(record.signature_method).toBe('typed')
      expect(record.typed_signature).toBe('Ana López')
      expect(record.signature).toMatch(/^data:image\/png;base64,/)
      expect(await lookedUp()).toEqual([{ signatureMethod: 'typed', typedSignature: 'Ana López' }])
    })

    it('says in the HTML and the PDF download that the claim was signed by typing the name', async () => {
      const created = await sendClaim({ signatureMethod: 'typed', typedSignature: 'Ana López' }).expect(201)

      const { html, pdf } = await downloads({ claimId: created.body.id })
      expect(html).toContain(
        '<strong>Signed by:</strong> typing the full name &quot;Ana López&quot;, shown in a signature style',
      )
      expect(pdf).toContain(TYPED_LINE)
    })

    it.each([[{ signatureMethod: 'drawn' }], [{}]])(
      'stores a claim signed %j as drawn, and its downloads say so',
      async (signing) => {
        const created = await sendClaim(signing).expect(201)
        const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
        expect([record.signature_method, record.typed_signature]).toEqual(['drawn', null])
        expect(await lookedUp()).toEqual([{ signatureMethod: 'drawn', typedSignature: null }])
        const { html, pdf } = await downloads({ claimId: created.body.id })
        expect(html).toContain('<strong>Signed by:</strong> drawing the signature on the screen')
        expect(pdf).toContain(DRAWN_LINE)
      },
    )

    it('counts a typed name of 200 characters by characters, not by UTF-16 units', async () => {
      await sendClaim({ signatureMethod: 'typed', typedSignature: 'Ł'.repeat(150) + '😀'.repeat(50) }).expect(
        201,
      )
      const record = await ctx.db.selectFrom('agreement_records').selectAll().executeTakeFirstOrThrow()
      expect([...record.typed_signature!]).toHaveLength(200)
    })

    it.each(REFUSED)(
      'refuses a claim signed %j with 422 naming "%s", and stores nothing',
      async (signing, field) => {
        const res = await sendClaim(signing).expect(422)
        expect(Object.keys(res.body.error.fields)).toEqual([field])
        expect(res.body.error.message).toContain(`"${field}"`)
        expect(await ctx.db.selectFrom('claims').selectAll().execute()).toEqual([])
      },
    )

    it('refuses the signing fields inside the claim\'s "data" (the schema knows only the answers)', async () => {
      const data = {
        ...makeClaimData({ email: CONTACT.email }),
        signatureMethod: 'typed',
        typedSignature: 'Ana',
      }
      await sendClaim({}, data).expect(422)
      expect(await ctx.db.selectFrom('claims').selectAll().execute()).toEqual([])
    })

    it('refuses a signing field sent twice with 400 naming it', async () => {
      const res = await sendClaim({ signatureMethod: 'typed', typedSignature: 'Ana López' })
        .field('typedSignature', 'Someone Else')
        .expect(400)
      expect(res.body.error.message).toContain('"typedSignature"')
    })

    it('stores how the main form was signed, and both its downloads say so', async () => {
      const created = await fileIntake({ signatureMethod: 'typed', typedSignature: ' Ana López ' }).expect(
        201,
      )

      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect([row.signature_method, row.typed_signature]).toEqual(['typed', 'Ana López'])
      expect(row.signature).toMatch(/^data:image\/png;base64,/)
      expect(await lookedUp()).toEqual([{ signatureMethod: 'typed', typedSignature: 'Ana López' }])
      const { html, pdf } = await downloads({ intakeId: created.body.id })
      expect(html).toContain('typing the full name &quot;Ana López&quot;, shown in a signature style')
      expect(pdf).toContain(TYPED_LINE)
    })

    it('stores a main form signed without saying how as drawn', async () => {
      const created = await fileIntake({}).expect(201)
      const row = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect([row.signature_method, row.typed_signature]).toEqual(['drawn', null])
      expect((await downloads({ intakeId: created.body.id })).pdf).toContain(DRAWN_LINE)
    })

    it.each([
      ...REFUSED,
      [{ signatureMethod: 'typed', typedSignature: 42 }, 'typedSignature'],
      [{ signatureMethod: 'drawn', typedSignature: null }, 'typedSignature'],
      [{ signatureMethod: null }, 'signatureMethod'],
    ] as [Record<string, unknown>, string][])(
      'refuses a main form signed %j with 422 naming "%s", and stores nothing',
      async (signing, field) => {
        const res = await fileIntake(signing).expect(422)
        expect(Object.keys(res.body.error.fields)).toEqual([field])
        expect(res.body.error.message).toContain(`"${field}"`)
        expect(await ctx.db.selectFrom('form_submissions').selectAll().execute()).toEqual([])
      },
    )
  })
}
