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
const PHONE_MESSAGE = 'Please enter a valid 10-digit phone number'

/** One number as people, phones and address books write it. */
const WRITINGS = [
  '+1 (555) 867-5309',
  '1-555-867-5309',
  '15558675309',
  '+1 555 867 5309',
  '555.867.5309',
  '555 867 5309',
  '(555)867-5309',
  '5558675309',
]

const IMPOSSIBLE = [
  ['(055) 867-5309', 'an area code starting with 0'],
  ['(155) 867-5309', 'an area code starting with 1'],
  ['(555) 067-5309', 'an exchange starting with 0'],
  ['(555) 167-5309', 'an exchange starting with 1'],
  ['555-867-530', 'nine digits'],
  ['2-555-867-5309', 'eleven digits not starting with the country code'],
  ['+44 20 7946 0958', 'a number from another country'],
]

function intakeData(phone: string): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin'],
    feesIncurred: ['Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Jenny',
    lastName: 'Tutone',
    email: 'jenny@example.com',
    phone,
    address: '1 Main St',
    city: 'Reno',
    state: 'NV',
    zipCode: '89501',
    signature: pngDataUrl(),
    consentAgreed: true,
    communicationsConsent: true,
  }
}

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

    function fileClaim(phoneNumber: string, app = 'brigit') {
      return request(ctx.app)
        .post(`/api/forms/${app}/submissions`)
        .field('data', JSON.stringify(makeClaimData({ phoneNumber })))
        .attach('screenshot', SCREENSHOT, 'statement.png')
    }

    it.each(WRITINGS)('stores a claim phoned as %j as (555) 867-5309', async (writing) => {
      await fileClaim(writing).expect(201)
      const claim = await ctx.db.selectFrom('claims').selectAll().executeTakeFirstOrThrow()
      expect(claim.phone_number).toBe('(555) 867-5309')
    })

    it('treats +1 (555) 867-5309 and 555.867.5309 as the same phone: the second claim is a duplicate', async () => {
      await fileClaim('+1 (555) 867-5309').expect(201)
      await fileClaim('555.867.5309').expect(409)
      await fileClaim('555.867.5309', 'earnin').expect(201)
    })

    it.each(IMPOSSIBLE)(
      'refuses %j (%s) with the form’s phone message, and stores nothing',
      async (phone) => {
        const res = await fileClaim(phone).expect(422)
        expect(res.body.error.fields.phoneNumber.__errors).toEqual([PHONE_MESSAGE])
        expect(res.body.error.message).toBe(`Phone Number: ${PHONE_MESSAGE}`)
        expect(await ctx.db.selectFrom('claims').selectAll().execute()).toEqual([])
      },
    )

    it.each(WRITINGS)('stores an intake phoned as %j as (555) 867-5309', async (writing) => {
      await request(ctx.app).post('/api/intake').send(intakeData(writing)).expect(201)
      const intake = await ctx.db.selectFrom('form_submissions').selectAll().executeTakeFirstOrThrow()
      expect(intake.phone).toBe('(555) 867-5309')
    })

    it.each(IMPOSSIBLE)(
      'refuses an intake phoned as %j (%s) with the form’s phone message',
      async (phone) => {
        const res = await request(ctx.app).post('/api/intake').send(intakeData(phone)).expect(422)
        expect(res.body.error.fields.phone.__errors).toEqual([PHONE_MESSAGE])
      },
    )

    it('finds the agreement whichever way the claimant writes the phone at /view-agreement', async () => {
      await fileClaim('5558675309').expect(201)
      const email = (makeClaimData().email as string).trim().toLowerCase()
      for (const phone of ['+1 (555) 867-5309', '1-555-867-5309', '555.867.5309']) {
        const res = await request(ctx.app).post('/api/agreements/lookup').send({ email, phone }).expect(200)
        expect(res.body.agreements).toHaveLength(1)
      }
    })
  })
}
