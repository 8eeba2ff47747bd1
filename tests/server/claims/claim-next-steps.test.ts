import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { mailsTo, partOf } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { fileClaim, journeyTokenOf } from '../support/claims.ts'

// The Step 2 success page and the claim's e-mail copy lead on to the next app the main form chose.

for (const dialect of DIALECTS) {
  describe(`${dialect}: the next app after a Step 2 claim`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const sendIntake = async (contact: { email: string; phone: string }, apps: string[]) =>
      (
        await request(ctx.app)
          .post('/api/intake')
          .send(makeIntakeData({ ...contact, cashAdvanceApps: apps }))
          .expect(201)
      ).body as CreatedIntake
    const fileClaimOf = (app: string, contact: { email: string; phone: string }, journeyToken?: string) =>
      fileClaim(ctx, { app, fields: { email: contact.email, phoneNumber: contact.phone }, journeyToken })

    it("answers a claim by its intake's Step 2 link with its number and the next app's pre-filling link", async () => {
      const contact = { email: 'next.link@mail.test', phone: '(808) 555-0161' }
      const intake = await sendIntake(contact, ['earnin', 'chime', 'moneylion'])
      const created = await fileClaimOf('earnin', contact, journeyTokenOf(intake, 'earnin'))
      expect(created.id).toEqual(expect.any(Number))
      const stored = await ctx.db
        .selectFrom('claims')
        .select('id')
        .where('id', '=', created.id)
        .executeTakeFirst()
      expect(stored).toBeDefined()
      expect(created.nextSteps.map((step) => [step.app, step.appName])).toEqual([
        ['chime', 'Chime'],
        ['moneylion', 'MoneyLion'],
      ])
      expect(created.nextSteps[0]!.path).toMatch(/^\/chime#prefill=[\w.-]+$/)
      // the link names nothing personal: only the app and a signed token in the fragment
      expect(created.nextSteps[0]!.path).not.toContain(contact.email)
    })

    it("gives a claim tied only by the intake's e-mail and phone the next app's form without its pre-fill", async () => {
      const contact = { email: 'next.typed@mail.test', phone: '(808) 555-0162' }
      await sendIntake(contact, ['earnin', 'chime'])
      const created = await fileClaimOf('earnin', contact)
      expect(created.nextSteps).toEqual([{ app: 'chime', appName: 'Chime', path: '/chime' }])
    })

    it('offers nothing next once every chosen app has its claim, nor for a claim without an intake', async () => {
      const contact = { email: 'next.done@mail.test', phone: '(808) 555-0163' }
      const intake = await sendIntake(contact, ['earnin', 'chime'])
      await fileClaimOf('earnin', contact, journeyTokenOf(intake, 'earnin'))
      expect((await fileClaimOf('chime', contact, journeyTokenOf(intake, 'chime'))).nextSteps).toEqual([])
      const alone = { email: 'no.intake@mail.test', phone: '(808) 555-0164' }
      expect((await fileClaimOf('earnin', alone)).nextSteps).toEqual([])
    })

    it("e-mails the claim's copy with its number and a link for each app still to file", async () => {
      const contact = { email: 'next.mail@mail.test', phone: '(808) 555-0165' }
      const intake = await sendIntake(contact, ['earnin', 'chime', 'moneylion'])
      const created = await fileClaimOf('earnin', contact, journeyTokenOf(intake, 'earnin'))
      ctx.agreementCopies.wake()
      await ctx.agreementCopies.settled()
      const copy = () =>
        mailsTo(ctx.dataDir, contact.email).find(({ eml }) =>
          /Subject: Your signed Earnin agreement/i.test(eml),
        )
      await expect.poll(copy).toBeDefined()
      const text = partOf(copy()!.eml, 'text/plain')
      expect(text).toContain(`Your claim number is ${created.id}.`)
      expect(text).toContain('You also chose Chime, MoneyLion on your claim form.')
      expect(text).toMatch(/File your Chime claim: http:\/\/[^\s]+\/chime#prefill=[\w.-]+/)
      expect(text).toMatch(/File your MoneyLion claim: http:\/\/[^\s]+\/moneylion#prefill=[\w.-]+/)
    })
  })
}
