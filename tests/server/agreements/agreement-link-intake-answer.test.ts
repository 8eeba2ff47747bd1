import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { localIsoDate } from '../../../src/agreement-context.ts'
import type { FoundAgreement } from '../../../src/api/agreements.ts'
import { intakeReference } from '../../../src/journey-config.ts'
import { DOWNLOAD_KEY_EXPIRED_MESSAGE, INTAKE_NOT_FOUND_MESSAGE } from '../../../src/lookup-messages.ts'
import { createTestContext, DIALECTS, pngDataUrl, readFixture, type TestContext } from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import { openAgreementsByLink } from '../support/agreement-link.ts'

const SCREENSHOT = readFixture('bank-statement.png')

/** A claimant of these tests: each test takes its own e-mail and phone. */
function claimantNo(n: number) {
  return {
    firstName: 'Rosa',
    lastName: 'Quispe',
    email: `rosa.quispe.${n}@example.com`,
    phoneNumber: `(312) 555-${String(4100 + n)}`,
  }
}

type Claimant = ReturnType<typeof claimantNo>

for (const dialect of DIALECTS) {
  describe(`${dialect}: answering for an intake on the opened link's page`, () => {
    let ctx: TestContext
    let next = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await ctx.db.deleteFrom('rate_limits').execute()
    })

    function fileIntake(claimant: Claimant) {
      return request(ctx.app)
        .post(`/api/intake?agreementDate=${localIsoDate()}`)
        .send({
          cashAdvanceApps: ['earnin'],
          feesIncurred: ['Subscription Fee'],
          isOver18: true,
          isActiveMilitary: false,
          hasBankruptcy: false,
          firstName: claimant.firstName,
          lastName: claimant.lastName,
          email: claimant.email,
          phone: claimant.phoneNumber,
          address: '77 Lake Shore Dr',
          addressLine2: 'Apt 9',
          city: 'Chicago',
          state: 'IL',
          zipCode: '60611',
          signature: pngDataUrl(),
          consentAgreed: true,
          communicationsConsent: true,
        })
    }

    /** The claimant's Step 2 claim, dated as the form dates it. */
    const claimOf = (claimant: Claimant) => ({
      app: 'brigit',
      fields: { ...claimant },
      agreementDate: localIsoDate(),
      screenshot: SCREENSHOT,
    })

    /** An intake and a claim of the same e-mail and phone, in the order given, and the link opened. */
    async function claimantWithIntake(order: 'claim first' | 'intake first') {
      const claimant = claimantNo((next += 1))
      const claimId = order === 'claim first' ? (await fileClaim(ctx, claimOf(claimant))).id : undefined
      const intakeId = (await fileIntake(claimant).expect(201)).body.id as number
      const laterClaimId = claimId ?? (await fileClaim(ctx, claimOf(claimant))).id
      const opened = await openAgreementsByLink(ctx, { email: claimant.email, phone: claimant.phoneNumber })
      return { claimant, intakeId, claimId: laterClaimId, opened }
    }

    function answer(body: Record<string, unknown>) {
      return request(ctx.app).post('/api/agreements/intake-answer').send(body)
    }

    async function intakeRow(id: number) {
      return ctx.db
        .selectFrom('form_submissions')
        .select(['confirmed_at', 'confirmed_ip', 'disowned_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    }

    async function claimIntakeOf(claimId: number) {
      const row = await ctx.db
        .selectFrom('claims')
        .select('intake_id')
        .where('id', '=', claimId)
        .executeTakeFirstOrThrow()
      return row.intake_id === null ? null : Number(row.intake_id)
    }

    it('lists an unconfirmed intake with its address, and confirms it with the opened key', async () => {
      const { intakeId, claimId, opened } = await claimantWithIntake('claim first')
      expect(await claimIntakeOf(claimId)).toBe(intakeId)
      expect(opened.agreements[0]).toMatchObject({
        kind: 'intake',
        intakeId,
        address: '77 Lake Shore Dr, Apt 9, Chicago, IL 60611',
        confirmedAt: null,
        disownedAt: null,
      } satisfies Partial<FoundAgreement>)

      const res = await answer({ key: opened.downloadKey, intakeId, answer: 'confirm' })

      expect(res.status).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toEqual({ confirmedAt: expect.any(String), alreadyConfirmed: false })
      const row = await intakeRow(intakeId)
      expect(row.confirmed_at).not.toBeNull()
      expect(row.confirmed_ip).not.toBeNull()
      expect(row.disowned_at).toBeNull()
      expect(await claimIntakeOf(claimId)).toBe(intakeId)
      const again = await answer({ key: opened.downloadKey, intakeId, answer: 'confirm' })
      expect(again.body).toEqual({ confirmedAt: res.body.confirmedAt, alreadyConfirmed: true })
      const reopened = await openAgreementsByLink(ctx, {
        email: opened.agreements[0]!.email,
        phone: opened.agreements[0]!.phoneNumber,
      })
      expect(reopened.agreements[0]).toMatchObject({ kind: 'intake', confirmedAt: res.body.confirmedAt })
    })

    it('"not-me" unties the claims and frees the e-mail and phone for the real claimant’s intake', async () => {
      const { claimant, intakeId, claimId, opened } = await claimantWithIntake('intake first')
      expect(await claimIntakeOf(claimId)).toBe(intakeId)
      await fileIntake(claimant).expect(409)

      const res = await answer({ key: opened.downloadKey, intakeId, answer: 'not-me' })

      expect(res.status).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.body).toEqual({ disownedAt: expect.any(String), alreadyDisowned: false })
      const row = await intakeRow(intakeId)
      expect(row.disowned_at).not.toBeNull()
      expect(row.confirmed_at).toBeNull()
      expect(await claimIntakeOf(claimId)).toBeNull()
      const own = await fileIntake(claimant)
      expect(own.status).toBe(201)
      expect(own.body.id).not.toBe(intakeId)
      // the next opened link says so, and gives the claimant's own intake's reference
      const reopened = await openAgreementsByLink(ctx, { email: claimant.email, phone: claimant.phoneNumber })
      expect(reopened.status.reference).toBe(intakeReference(own.body.id as number))
      expect(
        reopened.agreements
          .filter((found) => found.kind === 'intake')
          .sort((a, b) => a.intakeId - b.intakeId),
      ).toMatchObject([
        { intakeId, disownedAt: res.body.disownedAt },
        { intakeId: own.body.id, confirmedAt: null, disownedAt: null },
      ])
    })

    it('answers 404 alike for another claimant’s intake and an unknown one, and changes nothing', async () => {
      const ana = await claimantWithIntake('intake first')
      const ben = await claimantWithIntake('claim first')
      const unknownId = ben.intakeId + 1000

      const others = await answer({ key: ana.opened.downloadKey, intakeId: ben.intakeId, answer: 'not-me' })
      const unknown = await answer({ key: ana.opened.downloadKey, intakeId: unknownId, answer: 'confirm' })

      expect(others.status).toBe(404)
      expect(unknown.status).toBe(404)
      expect(others.body).toEqual(unknown.body)
      expect(others.body.error).toEqual({ code: 'AGREEMENT_NOT_FOUND', message: INTAKE_NOT_FOUND_MESSAGE })
      expect(await intakeRow(ben.intakeId)).toEqual({
        confirmed_at: null,
        confirmed_ip: null,
        disowned_at: null,
      })
      expect(await intakeRow(ana.intakeId)).toEqual({
        confirmed_at: null,
        confirmed_ip: null,
        disowned_at: null,
      })
      expect(await claimIntakeOf(ben.claimId)).toBe(ben.intakeId)
    })

    it('refuses a key no opened link gave, or one closed, as an expired one', async () => {
      const { intakeId, opened } = await claimantWithIntake('intake first')
      await request(ctx.app).post('/api/agreements/close').send({ key: opened.downloadKey }).expect(204)

      const closed = await answer({ key: opened.downloadKey, intakeId, answer: 'confirm' })
      const never = await answer({
        key: crypto.randomBytes(32).toString('base64url'),
        intakeId,
        answer: 'confirm',
      })

      for (const res of [closed, never]) {
        expect(res.status).toBe(410)
        expect(res.body.error).toEqual({ code: 'LINK_EXPIRED', message: DOWNLOAD_KEY_EXPIRED_MESSAGE })
      }
      expect((await intakeRow(intakeId)).confirmed_at).toBeNull()
    })

    it('refuses a bad body with 400 naming each problem, and an answer from another site with 403', async () => {
      const { intakeId, opened } = await claimantWithIntake('intake first')

      const bad = await answer({ key: 'short', intakeId: String(intakeId), answer: 'yes' })
      const crossSite = await request(ctx.app)
        .post('/api/agreements/intake-answer')
        .set('Origin', 'https://evil.example')
        .send({ key: opened.downloadKey, intakeId, answer: 'not-me' })

      expect(bad.status).toBe(400)
      expect(bad.body.error.message).toBe(
        'send "key", the download key that opening the link from the e-mail gave; ' +
          'send "intakeId", the number of the main-form submission answered for; ' +
          '"answer" must be "confirm", "not-me" or "undo-not-me"',
      )
      expect(crossSite.status).toBe(403)
      expect(await intakeRow(intakeId)).toEqual({ confirmed_at: null, confirmed_ip: null, disowned_at: null })
    })
  })
}
