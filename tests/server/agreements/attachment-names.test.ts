import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { mailsTo, openAgreementsByLink } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { sendClaimAsForm, sendIntakeAsForm } from '../support/client-requests.ts'
import { createTestContext, DIALECTS, makeClaimData, type TestContext } from '../support/helpers.ts'

const FIRST_NAME = 'José'
const LAST_NAME = 'Peña-Núñez'
/** The name every client that reads RFC 2231 (RFC 5987 over HTTP) shows: the claimant's own letters. */
const ACCENTED = (ext: string) => `José-Peña-Núñez-agreement.${ext}`
/** Its percent-encoded UTF-8, as the parameter carries it. */
const ENCODED = (ext: string) => `Jos%C3%A9-Pe%C3%B1a-N%C3%BA%C3%B1ez-agreement.${ext}`
/** The plain ASCII fallback for the rest: the accents dropped, the letters kept. */
const ASCII = (ext: string) => `Jose-Pena-Nunez-agreement.${ext}`

/** The names a Content-Disposition value gives: `filename="…"`, and `filename*=UTF-8''…` decoded. */
function namesOf(disposition: string) {
  const ascii = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1]
  const encoded = /;\s*filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1]
  return {
    type: disposition.split(';')[0]!.trim(),
    ascii,
    encoded,
    decoded: encoded === undefined ? undefined : decodeURIComponent(encoded),
  }
}

/** The Content-Disposition of each part of the message that carries a file, its folded lines joined. */
function attachmentDispositions(eml: string): string[] {
  return eml
    .split(/\n--\S+\n/)
    .map((section) => (section.split('\n\n')[0] ?? '').replace(/\n[ \t]+/g, ' '))
    .flatMap((headers) => /^Content-Disposition: (attachment\b.*)$/im.exec(headers)?.[1] ?? [])
}

const expected = (ext: string) => ({
  type: 'attachment',
  ascii: ASCII(ext),
  encoded: ENCODED(ext),
  decoded: ACCENTED(ext),
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: attachment names of a claimant with accented letters`, () => {
    let ctx: TestContext
    let intake: CreatedIntake
    let claimId: number
    const email = 'jose.pena@mail.test'
    const phone = '(808) 555-0142'

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      // the way a claimant goes: the main form, then the Step 2 link its answer gives, each sent as its
      // page sends it
      const signed = { agreementDate: new Date().toISOString().slice(0, 10), locale: 'en' } as const
      const filed = await sendIntakeAsForm(ctx.app, {
        ...signed,
        data: makeIntakeData({
          firstName: FIRST_NAME,
          lastName: LAST_NAME,
          email,
          phone: phone.replace(/\D/g, ''),
          cashAdvanceApps: ['earnin'],
        }),
        signing: { method: 'typed', typedName: `${FIRST_NAME} ${LAST_NAME}` },
      })
      expect(filed.status, JSON.stringify(filed.body)).toBe(201)
      intake = filed.body as CreatedIntake
      const claim = await sendClaimAsForm(ctx.app, {
        ...signed,
        slug: 'earnin',
        data: makeClaimData({ firstName: FIRST_NAME, lastName: LAST_NAME, email, phoneNumber: phone }),
        signing: { method: 'drawn' },
        journeyToken: intake.steps[0]!.path.split('#prefill=')[1],
      })
      expect(claim.status, JSON.stringify(claim.body)).toBe(201)
      claimId = Number(claim.body.id)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it("attaches the intake's agreement under the claimant's name in UTF-8, with a plain ASCII fallback", async () => {
      await ctx.reminders.runDue(Date.parse(intake.createdAt))
      const mail = mailsTo(ctx.dataDir, email).find(({ eml }) =>
        /^Subject: Your signed agreement and your next steps$/m.test(eml),
      )
      expect(mail, 'the e-mail after the intake').toBeDefined()
      expect(attachmentDispositions(mail!.eml).map(namesOf)).toEqual([expected('pdf')])
    })

    it("attaches the Step 2 claim's agreement, as HTML and as PDF, under the claimant's name in UTF-8, with a plain ASCII fallback", async () => {
      await ctx.agreementCopies.settled()
      const mail = mailsTo(ctx.dataDir, email).find(({ eml }) =>
        /^Subject: Your signed Earnin agreement$/m.test(eml),
      )
      expect(mail, "the Step 2 claim's copy").toBeDefined()
      expect(attachmentDispositions(mail!.eml).map(namesOf)).toEqual([expected('html'), expected('pdf')])
    })

    it("names the downloads of both agreements the same way, in the response's Content-Disposition", async () => {
      const { downloadKey: key } = await openAgreementsByLink(ctx, { email, phone })
      const download = (agreement: { claimId: number } | { intakeId: number }, format: 'html' | 'pdf') =>
        request(ctx.app)
          .post('/api/agreements/download')
          .send({ key, ...agreement, format })
          .buffer(true)
          .parse((res, done) => {
            res.on('data', () => undefined)
            res.on('end', () => done(null, null))
          })
          .expect(200)
      for (const agreement of [{ claimId }, { intakeId: intake.id }] as const) {
        for (const format of ['html', 'pdf'] as const) {
          const res = await download(agreement, format)
          expect(namesOf(res.headers['content-disposition'] ?? '')).toEqual(expected(format))
        }
      }
    })
  })
}
