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
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { findAgreementsByLink, linkMailsTo } from '../support/agreement-link.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const PHONE_MESSAGE = 'Please enter a valid 10-digit phone number'
const SPANISH_PHONE_MESSAGE = 'Ingrese un número de teléfono válido de 10 dígitos'
const STORED = '(555) 867-5309'

/** One number as people, phones and address books write it. */
const WRITINGS = [
  '+1 (555) 867-5309',
  '1-555-867-5309',
  '15558675309',
  '+15558675309',
  '+1 555 867 5309',
  '1 (555) 867-5309',
  '555.867.5309',
  '555 867 5309',
  '(555)867-5309',
  '(555) 867-5309',
  '5558675309',
]

const IMPOSSIBLE = [
  ['(055) 867-5309', 'an area code starting with 0'],
  ['(155) 867-5309', 'an area code starting with 1'],
  ['(555) 067-5309', 'an exchange starting with 0'],
  ['(555) 167-5309', 'an exchange starting with 1'],
  ['555-867-530', 'nine digits'],
  ['555-867-53091', 'eleven digits not starting with the country code'],
  ['2-555-867-5309', 'eleven digits starting with 2'],
  ['+44 20 7946 0958', 'a number from another country'],
  ['555-TELL-ME', 'letters'],
  ['555-867-5309 ext 2', 'an extension'],
  ['+1 (555) 867-5309 555 867 5309', 'longer than any writing of one number'],
]

for (const dialect of DIALECTS) {
  describe(`${dialect}: phone numbers in every usual writing`, () => {
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

    const sendClaim = (phoneNumber: string, { app = 'brigit', lang = '' } = {}) =>
      postClaim(ctx.app, { app, lang, fields: { phoneNumber }, screenshot: SCREENSHOT })

    function fileIntake(phone: string) {
      return request(ctx.app).post('/api/intake').send(makeIntakeData({ phone }))
    }

    async function storedClaimPhones(): Promise<string[]> {
      const rows = await ctx.db.selectFrom('claims').select('phone_number').execute()
      return rows.map((row) => row.phone_number)
    }

    it.each(WRITINGS)('stores a claim phoned as %j as (555) 867-5309', async (writing) => {
      await sendClaim(writing).expect(201)

      expect(await storedClaimPhones()).toEqual([STORED])
    })

    it('puts (555) 867-5309 in the signed agreement of a claim phoned as +1 555.867.5309', async () => {
      await sendClaim('+1 555.867.5309').expect(201)

      const record = await ctx.db.selectFrom('agreement_records').select('html').executeTakeFirstOrThrow()
      expect(record.html).toContain(STORED)
      expect(record.html).not.toContain('(155) 586-7530')
    })

    it('treats +1 (555) 867-5309 and 555.867.5309 as the same phone: the second claim is a duplicate', async () => {
      await sendClaim('+1 (555) 867-5309').expect(201)
      await sendClaim('555.867.5309').expect(409)
      await sendClaim('1 555 867 5309', { app: 'earnin' }).expect(201)

      expect(await storedClaimPhones()).toEqual([STORED, STORED])
    })

    it.each(IMPOSSIBLE)(
      'refuses a claim phoned as %j (%s) with the form’s phone message, naming the field, and stores nothing',
      async (phone) => {
        const res = await sendClaim(phone).expect(422)

        expect(res.body.error.message).toBe(`Phone Number: ${PHONE_MESSAGE}`)
        expect(res.body.error.fields).toEqual({ phoneNumber: { __errors: [PHONE_MESSAGE] } })
        expect(await storedClaimPhones()).toEqual([])
      },
    )

    it('refuses an impossible phone in Spanish on a Spanish page', async () => {
      const res = await sendClaim('(155) 867-5309', { lang: 'es' }).expect(422)

      expect(res.body.error.message).toBe(`Número de teléfono: ${SPANISH_PHONE_MESSAGE}`)
    })

    it.each(WRITINGS)('stores an intake phoned as %j as (555) 867-5309', async (writing) => {
      await fileIntake(writing).expect(201)

      const intake = await ctx.db.selectFrom('form_submissions').select('phone').executeTakeFirstOrThrow()
      expect(intake.phone).toBe(STORED)
    })

    it('treats an intake phoned +1 (555) 867-5309 and one phoned 555.867.5309 with the same e-mail as duplicates', async () => {
      await fileIntake('+1 (555) 867-5309').expect(201)
      await fileIntake('555.867.5309').expect(409)
    })

    it.each(IMPOSSIBLE)(
      'refuses an intake phoned as %j (%s) with the form’s phone message, naming the field',
      async (phone) => {
        const res = await fileIntake(phone).expect(422)

        expect(res.body.error.message).toBe(`Phone Number: ${PHONE_MESSAGE}`)
        expect(res.body.error.fields).toEqual({ phone: { __errors: [PHONE_MESSAGE] } })
        expect(await ctx.db.selectFrom('form_submissions').selectAll().execute()).toEqual([])
      },
    )

    describe('the agreement lookup', () => {
      const email = String(makeClaimData().email).toLowerCase()

      function lookUp(phone: string, claimantEmail = email) {
        return request(ctx.app).post('/api/agreements/lookup').send({ email: claimantEmail, phone })
      }

      /** How many agreements the link e-mailed for this phone opens. */
      async function foundWith(phone: string): Promise<number> {
        return (await findAgreementsByLink(ctx, { email, phone })).length
      }

      /** Whether a lookup with this phone (and e-mail) e-mails a link, its answer being 202 either way. */
      async function mailsLink(phone: string, claimantEmail = email): Promise<boolean> {
        const before = linkMailsTo(ctx.dataDir, email).length
        await lookUp(phone, claimantEmail).expect(202)
        await ctx.agreementLinks.settled()
        return linkMailsTo(ctx.dataDir, email).length > before
      }

      it.each(WRITINGS)('finds a claim and an intake when the claimant types %j', async (writing) => {
        await sendClaim('5558675309').expect(201)
        await fileIntake('5558675309').expect(201)

        expect(await foundWith(writing)).toBe(2)
      })

      /** A claim filed today, its phone then set as an older version of the site stored it. */
      async function fileClaimStoredAs(storedPhone: string) {
        await sendClaim('(303) 555-0100').expect(201)
        await ctx.db.updateTable('claims').set({ phone_number: storedPhone }).execute()
      }

      it('finds a claim stored before the country code was recognised, when the claimant types it again', async () => {
        // '1-555-867-5309' was once kept as its first ten digits
        await fileClaimStoredAs('(155) 586-7530')

        expect(await foundWith('1-555-867-5309')).toBe(1)
        expect(await foundWith('+1 (555) 867-5309')).toBe(1)
        expect(await mailsLink('555-867-5309')).toBe(false)
      })

      it('finds a claim stored before the area-code and exchange rule, with a number that rule refuses', async () => {
        await fileClaimStoredAs('(555) 123-4567')

        expect(await foundWith('555.123.4567')).toBe(1)
      })

      it('answers a wrong phone as it answers a wrong e-mail, and e-mails a link for neither', async () => {
        await sendClaim('5558675309').expect(201)

        const wrongPhone = await lookUp('+1 (555) 867-5308').expect(202)
        const wrongEmail = await lookUp('+1 (555) 867-5309', 'someone.else@example.com').expect(202)
        expect(wrongPhone.body).toEqual(wrongEmail.body)
        expect(await mailsLink('+1 (555) 867-5308')).toBe(false)
      })

      it('refuses a phone without ten digits with the lookup’s phone message', async () => {
        const res = await lookUp('+1 555 867 530').expect(422)

        expect(res.body.error.fields.phone.__errors).toEqual([PHONE_MESSAGE])
      })
    })
  })
}
