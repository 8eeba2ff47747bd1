import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IntakeSubmission, IntakeSubmissionDetails, StaffPage } from '../../../src/api/staff.ts'
import { createTestContext, DIALECTS, insertClaim, pngDataUrl, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'intake-admin.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const SIGNATURE = pngDataUrl()
const PARALEGAL = { email: 'intake-paralegal@firm.test', password: 'paralegal password 1' }

/** A valid main intake as the browser sends it. */
function makeIntakeData(overrides: Record<string, unknown>): Record<string, unknown> {
  return {
    cashAdvanceApps: ['earnin'],
    feesIncurred: ['Subscription Fee', 'Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane.doe@example.com',
    phone: '8085550100',
    address: '123 Kalakaua Ave',
    city: 'Honolulu',
    state: 'HI',
    zipCode: '96815',
    signature: SIGNATURE,
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the main admin view's intakes`, () => {
    let ctx: TestContext
    let admin: string
    let paralegal: string
    let leilani: number
    let sam: number
    let percent: number
    let claimId: number

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      paralegal = await signInNewAccount(ctx, SITE, {
        ...PARALEGAL,
        name: 'Pat Paralegal',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: true }],
      })
      const post = async (data: Record<string, unknown>) =>
        Number((await request(ctx.app).post('/api/intake').send(data).expect(201)).body.id)
      leilani = await post(
        makeIntakeData({
          firstName: 'Leilani',
          lastName: 'Kahale',
          email: 'leilani.kahale@example.com',
          phone: '8085550101',
          addressLine2: 'Apt 4',
          cashAdvanceApps: ['chime', 'earnin'],
          feesIncurred: ['Instant Transfer Fee'],
          isActiveMilitary: true,
        }),
      )
      sam = await post(
        makeIntakeData({
          firstName: 'Sam',
          lastName: 'Rivers',
          email: 'sam.rivers@example.net',
          phone: '2125550199',
          cashAdvanceApps: ['moneylion'],
        }),
      )
      percent = await post(
        makeIntakeData({
          firstName: 'Ana',
          lastName: 'Half%_Off',
          email: 'ana@example.org',
          phone: '3125550142',
        }),
      )
      // Leilani's earnin Step 2 (tied to her intake, as the claim path ties the same e-mail and phone),
      // made deficient; a chime claim from another phone
      claimId = (
        await insertClaim(ctx.db, {
          app: 'earnin',
          created_at: new Date().toISOString(),
          first_name: 'Leilani',
          last_name: 'Kahale',
          email: 'leilani.kahale@example.com',
          phone_number: '(808) 555-0101',
          cash_advance_count: 3,
          membership_months: 6,
          screenshot_key: 'earnin-screenshots/missing.png',
          screenshot_type: 'image/png',
          review_status: 'deficient',
          intake_id: leilani,
        })
      ).id
      await insertClaim(ctx.db, {
        app: 'chime',
        created_at: new Date().toISOString(),
        first_name: 'Other',
        last_name: 'Person',
        email: 'other@example.com',
        phone_number: '(808) 555-0999',
        cash_advance_count: 1,
        membership_months: 1,
        screenshot_key: 'chime-screenshots/missing.png',
        screenshot_type: 'image/png',
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const get = (url: string, cookie = admin) =>
      request(ctx.app).get(url).set(SAME_SITE).set('Cookie', cookie)
    const searchIds = async (q: string) => {
      const res = await get('/api/staff/intake-submissions').query({ q }).expect(200)
      return (res.body.data as { id: number }[]).map(({ id }) => id)
    }

    describe('search', () => {
      it('finds intakes by part of the e-mail, the first, last or full name, or the phone, in any case', async () => {
        expect(await searchIds('KAHALE@EXAMPLE')).toEqual([leilani])
        expect(await searchIds('rivers')).toEqual([sam])
        expect(await searchIds('sam rivers')).toEqual([sam])
        expect(await searchIds('(212) 555')).toEqual([sam])
        expect(await searchIds('example')).toEqual([percent, sam, leilani])
        expect(await searchIds('nobody-like-this')).toEqual([])
      })

      it('finds a phone by its digits, however they are written', async () => {
        expect(await searchIds('2125550199')).toEqual([sam])
        expect(await searchIds('555-0142')).toEqual([percent])
      })

      it('matches "%" and "_" as themselves, not as wildcards', async () => {
        expect(await searchIds('%')).toEqual([percent])
        expect(await searchIds('f%_o')).toEqual([percent])
        expect(await searchIds('_')).toEqual([percent])
      })

      it('counts the matches beside the total and pages through the matches', async () => {
        const first = await get('/api/staff/intake-submissions')
          .query({ q: 'example', pageSize: 2 })
          .expect(200)
        expect(first.body).toMatchObject({ count: 3, total: 3, page: 1, pageSize: 2 })
        expect(first.body.data.map(({ id }: { id: number }) => id)).toEqual([percent, sam])
        const second = await get('/api/staff/intake-submissions')
          .query({ q: 'example', pageSize: 2, page: 2 })
          .expect(200)
        expect(second.body).toMatchObject({ count: 3, total: 3, page: 2 })
        expect(second.body.data.map(({ id }: { id: number }) => id)).toEqual([leilani])
        const one = await get('/api/staff/intake-submissions').query({ q: 'leilani' }).expect(200)
        expect(one.body).toMatchObject({ count: 1, total: 3 })
      })

      it('names each intake\'s answer to its e-mail: confirmed, not confirmed, or "not me" over a confirmation', async () => {
        await ctx.db
          .updateTable('form_submissions')
          .set({ confirmed_at: new Date().toISOString() })
          .where('id', 'in', [sam, percent])
          .execute()
        await ctx.db
          .updateTable('form_submissions')
          .set({ disowned_at: Date.now() })
          .where('id', '=', percent)
          .execute()
        const { body } = await get('/api/staff/intake-submissions').expect(200)
        const answerOf = (id: number) =>
          (body as StaffPage<IntakeSubmission>).data.find((row) => row.id === id)?.confirmation
        expect([answerOf(leilani), answerOf(sam), answerOf(percent)]).toEqual([
          'not_confirmed',
          'confirmed',
          'not_me',
        ])
        await ctx.db
          .updateTable('form_submissions')
          .set({ disowned_at: null })
          .where('id', '=', percent)
          .execute()
      })

      it('refuses a term with a control character (400)', async () => {
        const res = await get('/api/staff/intake-submissions').query({ q: 'a\u0000b' }).expect(400)
        expect(res.body.error.code).toBe('BAD_REQUEST')
      })
    })

    describe('GET /api/staff/intake-submissions/:intakeId', () => {
      it("answers the intake's address, answers as given, signature, and each app's case and Step 2 state", async () => {
        const res = await get(`/api/staff/intake-submissions/${leilani}`).expect(200)
        expect(res.headers['cache-control']).toBe('private, no-store')
        const body = res.body as IntakeSubmissionDetails
        expect(body).toMatchObject({
          id: leilani,
          firstName: 'Leilani',
          lastName: 'Kahale',
          email: 'leilani.kahale@example.com',
          phone: '(808) 555-0101',
          cashAdvanceApps: ['Chime', 'Earnin'],
          signature: SIGNATURE,
          signatureMethod: 'drawn',
          typedSignature: null,
          address: '123 Kalakaua Ave',
          addressLine2: 'Apt 4',
          city: 'Honolulu',
          state: 'HI',
          zipCode: '96815',
        })
        expect(body.answers).toEqual([
          { question: 'Which cash advance apps have you used?', answer: 'Chime, Earnin' },
          { question: 'Which fees have you paid?', answer: 'Instant Transfer Fee' },
          { question: 'Are you 18 years of age or older?', answer: 'Yes' },
          { question: 'Are you an active member of the military?', answer: 'Yes' },
          { question: 'Have you filed for bankruptcy?', answer: 'No' },
        ])
        // in the claimant's order; chime's claim is another phone's, so Leilani's chime is not started
        expect(body.cases).toEqual([
          { app: 'chime', appName: 'Chime', caseId: expect.any(Number), claim: null },
          {
            app: 'earnin',
            appName: 'Earnin',
            caseId: expect.any(Number),
            claim: { id: claimId, status: 'deficient', statusLabel: 'Deficient' },
          },
        ])
        const caseIds = await ctx.db
          .selectFrom('intake_cases')
          .select(['id', 'app'])
          .where('original_submission_id', '=', leilani)
          .execute()
        expect(body.cases.map(({ caseId }) => caseId).sort()).toEqual(
          caseIds.map(({ id }) => Number(id)).sort(),
        )
      })

      it('gives a Step 2 claim in its first status the label "Received"', async () => {
        await insertClaim(ctx.db, {
          app: 'moneylion',
          created_at: new Date().toISOString(),
          first_name: 'Sam',
          last_name: 'Rivers',
          email: 'sam.rivers@example.net',
          phone_number: '(212) 555-0199',
          cash_advance_count: 2,
          membership_months: 3,
          screenshot_key: 'moneylion-screenshots/missing.png',
          screenshot_type: 'image/png',
          intake_id: sam,
        })
        const res = await get(`/api/staff/intake-submissions/${sam}`).expect(200)
        expect(res.body.cases).toEqual([
          {
            app: 'moneylion',
            appName: 'MoneyLion',
            caseId: expect.any(Number),
            claim: { id: expect.any(Number), status: 'received', statusLabel: 'Received' },
          },
        ])
      })

      it('puts every view on record, naming the intake by its id alone', async () => {
        const views = () =>
          ctx.db
            .selectFrom('audit_log')
            .select(['detail', 'actor', 'app'])
            .where('action', '=', 'intake_view')
            .orderBy('id', 'desc')
            .execute()
        const before = (await views()).length
        await get(`/api/staff/intake-submissions/${percent}`).expect(200)
        await get(`/api/staff/intake-submissions/${percent}`).expect(200)
        const after = await views()
        expect(after).toHaveLength(before + 2)
        expect(after[0]).toEqual({ detail: `intake ${percent}`, actor: 'admin@firm.test', app: null })
      })

      it('answers 404 for an intake that does not exist and 400 for an id that is not a number', async () => {
        const missing = await get('/api/staff/intake-submissions/999999999').expect(404)
        expect(missing.body.error.code).toBe('NOT_FOUND')
        for (const bad of ['abc', '1.5', '-1', '1e3']) {
          const res = await get(`/api/staff/intake-submissions/${bad}`).expect(400)
          expect(res.body.error.code).toBe('BAD_REQUEST')
        }
      })

      it('refuses a staff account (403) and a request without a session (401), recording no view', async () => {
        const count = async () =>
          Number(
            (
              await ctx.db
                .selectFrom('audit_log')
                .select((eb) => eb.fn.countAll<number | string>().as('n'))
                .where('action', '=', 'intake_view')
                .executeTakeFirstOrThrow()
            ).n,
          )
        const before = await count()
        const refused = await get(`/api/staff/intake-submissions/${leilani}`, paralegal).expect(403)
        expect(refused.body.error.code).toBe('FORBIDDEN')
        await get('/api/staff/intake-submissions', paralegal).query({ q: 'leilani' }).expect(403)
        await request(ctx.app).get(`/api/staff/intake-submissions/${leilani}`).set(SAME_SITE).expect(401)
        expect(await count()).toBe(before)
      })
    })
  })
}
