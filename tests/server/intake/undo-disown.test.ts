import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ErrorBody } from '../../../src/app-error.ts'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { mailsTo, openAgreementsByLink, partOf } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'

// "This wasn't me" pressed by mistake is taken back within a day; an intake's only while no newer
// intake holds its e-mail and phone.

const PAGE = { Host: '127.0.0.1', Origin: 'http://127.0.0.1' }
const DAY_MS = 24 * 60 * 60 * 1000

for (const dialect of DIALECTS) {
  describe(`${dialect}: taking back "This wasn't me"`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const post = (url: string, token: string) => request(ctx.app).post(url).set(PAGE).send({ token })
    /** The "Confirm it was you" token in the newest e-mail to `email` that holds `marker`. */
    const tokenIn = async (email: string, marker: string) => {
      const token = () =>
        mailsTo(ctx.dataDir, email)
          .map(({ eml }) => partOf(eml, 'text/plain'))
          .filter((text) => text.includes(marker))
          .map((text) => /\/confirm#token=([\w-]{43})/.exec(text)?.[1])
          .findLast((found) => found !== undefined)
      await expect.poll(token, { timeout: 15_000 }).toBeDefined()
      return token()!
    }
    const claimToken = async (email: string, claimId: number) => {
      ctx.agreementCopies.wake()
      await ctx.agreementCopies.settled()
      return tokenIn(email, `Your claim number is ${claimId}.`)
    }
    const sendIntake = async (email: string, phone: string) => {
      const sent = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ email, phone, cashAdvanceApps: ['earnin'] }))
        .expect(201)
      return sent.body as CreatedIntake
    }
    const intakeToken = async (email: string, intake: CreatedIntake) => {
      await ctx.reminders.runDue()
      return tokenIn(email, intake.reference)
    }
    const row = (table: 'claims' | 'form_submissions', id: number) =>
      ctx.db
        .selectFrom(table as 'claims')
        .select(['disowned_at', 'disowned_ip', 'disowned_user_agent'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    const auditActions = async () =>
      (await ctx.db.selectFrom('audit_log').select(['action', 'detail']).orderBy('id').execute()).map(
        (entry) => `${entry.action}: ${entry.detail}`,
      )
    const intakeOf = async (claimId: number) =>
      (
        await ctx.db
          .selectFrom('claims')
          .select('intake_id')
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
      ).intake_id

    it('takes back a claim\'s "This wasn\'t me" within the day, clearing it and writing an audit entry', async () => {
      const email = 'undo.claim@mail.test'
      const claimId = (
        await fileClaim(ctx, { app: 'earnin', fields: { email, phoneNumber: '(808) 555-0171' } })
      ).id
      const token = await claimToken(email, claimId)
      await post('/api/confirmations/not-me', token).expect(200)
      expect((await row('claims', claimId)).disowned_at).not.toBeNull()

      const undone = await post('/api/confirmations/undo-not-me', token).expect(200)
      expect((undone.body as { undoneAt: string }).undoneAt).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(await row('claims', claimId)).toEqual({
        disowned_at: null,
        disowned_ip: null,
        disowned_user_agent: null,
      })
      expect(await auditActions()).toContain(
        `claim_disown_undone: claim ${claimId}: the owner of its e-mail took back "this wasn't me"`,
      )
      // the page now says nothing was disowned, and a second undo changes nothing
      const linked = await post('/api/confirmations/claim', token).expect(200)
      expect((linked.body as { disownedAt: string | null }).disownedAt).toBeNull()
      await post('/api/confirmations/undo-not-me', token).expect(200)
    })

    it('refuses the undo once a day has passed, and the claim stays disowned', async () => {
      const email = 'undo.late@mail.test'
      const claimId = (
        await fileClaim(ctx, { app: 'earnin', fields: { email, phoneNumber: '(808) 555-0172' } })
      ).id
      const token = await claimToken(email, claimId)
      await post('/api/confirmations/not-me', token).expect(200)
      const late = Date.now() - DAY_MS - 60_000
      await ctx.db.updateTable('claims').set({ disowned_at: late }).where('id', '=', claimId).execute()

      const refused = await post('/api/confirmations/undo-not-me', token).expect(409)
      expect((refused.body as ErrorBody).error).toMatchObject({ code: 'UNDO_EXPIRED' })
      expect((refused.body as ErrorBody).error.message).toMatch(/only within a day/)
      expect(Number((await row('claims', claimId)).disowned_at)).toBe(late)
    })

    it('takes back an intake\'s "This wasn\'t me": its claims name it again', async () => {
      const contact = { email: 'undo.intake@mail.test', phone: '(808) 555-0173' }
      const intake = await sendIntake(contact.email, contact.phone)
      const claimId = (
        await fileClaim(ctx, { app: 'earnin', fields: { email: contact.email, phoneNumber: contact.phone } })
      ).id
      expect(await intakeOf(claimId)).toBe(intake.id)
      const token = await intakeToken(contact.email, intake)
      await post('/api/confirmations/not-me', token).expect(200)
      expect(await intakeOf(claimId)).toBeNull()

      await post('/api/confirmations/undo-not-me', token).expect(200)
      expect((await row('form_submissions', intake.id)).disowned_at).toBeNull()
      expect(await intakeOf(claimId)).toBe(intake.id)
      expect(await auditActions()).toContain(
        `intake_disown_undone: intake ${intake.id}: the owner of its e-mail took back "this wasn't me"`,
      )
    })

    it('takes back an intake\'s "This wasn\'t me" from the opened page of agreements, by its download key', async () => {
      const contact = { email: 'undo.page@mail.test', phone: '(808) 555-0175' }
      const intake = await sendIntake(contact.email, contact.phone)
      const opened = await openAgreementsByLink(ctx, contact)
      const answer = (what: string) =>
        request(ctx.app)
          .post('/api/agreements/intake-answer')
          .set(PAGE)
          .send({ key: opened.downloadKey, intakeId: intake.id, answer: what })
      await answer('not-me').expect(200)
      expect((await row('form_submissions', intake.id)).disowned_at).not.toBeNull()
      const undone = await answer('undo-not-me').expect(200)
      expect(undone.body).toEqual({ undoneAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown })
      expect((await row('form_submissions', intake.id)).disowned_at).toBeNull()
    })

    it('refuses to take back an intake\'s "This wasn\'t me" once a newer intake holds its e-mail and phone', async () => {
      const contact = { email: 'undo.taken@mail.test', phone: '(808) 555-0174' }
      const first = await sendIntake(contact.email, contact.phone)
      const token = await intakeToken(contact.email, first)
      await post('/api/confirmations/not-me', token).expect(200)
      const newer = await sendIntake(contact.email, contact.phone)
      expect(newer.id).not.toBe(first.id)

      const refused = await post('/api/confirmations/undo-not-me', token).expect(409)
      expect((refused.body as ErrorBody).error).toMatchObject({ code: 'UNDO_TAKEN' })
      expect((refused.body as ErrorBody).error.message).toMatch(/a newer claim form was sent/)
      expect((await row('form_submissions', first.id)).disowned_at).not.toBeNull()
    })
  })
}
