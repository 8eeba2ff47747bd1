import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { Batch, BatchCandidates } from '../../../src/api/filing-batches.ts'
import type { ClaimReview } from '../../../src/api/review.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { linkMailsTo, mailsTo, partOf } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, makeClaimData, makePng, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { seedClaim } from '../support/claims.ts'
import { asBuffer, unzip } from '../support/unzip.ts'

// The security review's probe: an intake sent by anyone with a claimant's e-mail and phone must not put
// its address on that claimant's notice of dispute, nor lock the claimant out of their own main form.

const SITE = 'ties.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const VICTIM = { email: 'victim@mail.test', phone: '(808) 555-0142' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: only the claimant sets the address on their notice`, () => {
    let ctx: TestContext
    let admin: string
    let claimId: number
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-ties-'))

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      const claim = await seedClaim(ctx, {
        app: 'earnin',
        status: 'approved',
        fields: { email: VICTIM.email, phoneNumber: VICTIM.phone },
        screenshot: makePng({ width: 40, height: 30 }),
      })
      claimId = claim.id
      // a batch takes a claim once its fraud score is in
      await ctx.fraudScores.runDue()
    })
    afterAll(async () => {
      await ctx?.close()
      fs.rmSync(dir, { recursive: true, force: true })
    })

    const api = '/api/staff/apps/earnin/batches'
    const staffGet = (url: string) => request(ctx.app).get(url).set({ Host: SITE }).set('Cookie', admin)
    const staffPost = (url: string, body: object) =>
      request(ctx.app).post(url).set(SAME_SITE).set('Cookie', admin).send(body)
    const review = async () =>
      (await staffGet(`/api/staff/claims/${claimId}/review`).expect(200)).body as ClaimReview
    const sendIntake = (address: string) =>
      request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ ...VICTIM, address, cashAdvanceApps: ['earnin'] }))
    /** The token of the "Confirm it was you" link in the e-mail after intake `id` (written to the outbox after the send). */
    const confirmationToken = async (id: number) => {
      await ctx.reminders.runDue()
      const reference = `IN-${String(id).padStart(6, '0')}`
      const token = () =>
        mailsTo(ctx.dataDir, VICTIM.email)
          .map(({ eml }) => partOf(eml, 'text/plain'))
          .filter((text) => text.includes(reference))
          .map((text) => /\/confirm#token=([\w-]{43})/.exec(text)?.[1])
          .find((found) => found !== undefined)
      await expect.poll(token).toBeDefined()
      return token()!
    }
    const answerLink = (url: string, token: string) =>
      request(ctx.app)
        .post(url)
        .set({ Host: '127.0.0.1', Origin: 'http://127.0.0.1' })
        .send({ token })
        .expect(200)
    const intakeOfClaim = async () =>
      (
        await ctx.db
          .selectFrom('claims')
          .select('intake_id')
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
      ).intake_id

    it("keeps an unconfirmed intake's address off the claim's notice, and names why on the review and the batch page", async () => {
      const forged = await sendIntake('666 Attacker Rd').expect(201)
      const forgedId = (forged.body as { id: number }).id
      // the claim names the intake, which nothing yet shows its claimant sent
      expect(await intakeOfClaim()).toBe(forgedId)
      expect((await review()).intake).toEqual({
        id: forgedId,
        reference: `IN-${String(forgedId).padStart(6, '0')}`,
        confirmed: false,
      })
      const candidates = (await staffGet(`${api}/candidates?kind=notice`).expect(200)).body as BatchCandidates
      expect(candidates.claims.map((claim) => [claim.claimId, claim.missing])).toEqual([
        [claimId, [`claim ${claimId}: address not confirmed`]],
      ])
      expect([candidates.ready, candidates.lacking]).toEqual([0, 1])
      const refused = await staffPost(api, { kind: 'notice', claimIds: [claimId] }).expect(422)
      expect((refused.body as ErrorBody).error.message).toContain(`claim ${claimId}: address not confirmed`)
      expect(await ctx.db.selectFrom('filing_batches').select('id').execute()).toEqual([])
    })

    it("refuses the real claimant's own intake as a duplicate and e-mails them the link to their claims", async () => {
      const before = linkMailsTo(ctx.dataDir, VICTIM.email).length
      const refused = await sendIntake('12 Real St').expect(409)
      expect((refused.body as ErrorBody).error.message).toMatch(/We e-mailed you a link to your claims/)
      await expect.poll(() => linkMailsTo(ctx.dataDir, VICTIM.email).length).toBe(before + 1)
    })

    it('"This wasn\'t me" unties the claim, stops the intake\'s e-mails and frees the pair for the real intake', async () => {
      const forgedId = (await intakeOfClaim())!
      await answerLink('/api/confirmations/not-me', await confirmationToken(forgedId))
      expect(await intakeOfClaim()).toBeNull()
      // kept as evidence, with no more reminders
      const forged = await ctx.db
        .selectFrom('form_submissions')
        .select(['address', 'disowned_at'])
        .where('id', '=', forgedId)
        .executeTakeFirstOrThrow()
      expect(forged.address).toBe('666 Attacker Rd')
      expect(forged.disowned_at).not.toBeNull()
      expect(
        await ctx.db
          .selectFrom('claimant_journeys')
          .select('intake_id')
          .where('intake_id', '=', forgedId)
          .execute(),
      ).toEqual([])

      const real = await sendIntake('12 Real St').expect(201)
      const realId = (real.body as { id: number }).id
      expect(await intakeOfClaim()).toBe(realId)
      expect((await review()).intake?.confirmed).toBe(false)
      await answerLink('/api/confirmations', await confirmationToken(realId))
      expect((await review()).intake).toEqual({
        id: realId,
        reference: `IN-${String(realId).padStart(6, '0')}`,
        confirmed: true,
      })
    })

    it("prints only the confirmed address on the notice's mailing log", async () => {
      const started = (await staffPost(api, { kind: 'notice', claimIds: [claimId] }).expect(202))
        .body as Batch
      await ctx.batchBuilder.runDue()
      const zip = (await asBuffer(staffGet(`${api}/${started.id}/download`)).expect(200)).body as Buffer
      const into = path.join(dir, 'notice')
      fs.mkdirSync(into, { recursive: true })
      await unzip(zip, into)
      const log = fs.readFileSync(path.join(into, 'mailing-log.csv'), 'utf8')
      expect(log).toContain('12 Real St')
      expect(log).not.toContain('Attacker')
    })

    it("ties a claim by a Step 2 link only when it shares the intake's e-mail or phone", async () => {
      const other = { email: 'linked@mail.test', phone: '(808) 555-0143' }
      const intake = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ ...other, cashAdvanceApps: ['chime', 'moneylion'] }))
        .expect(201)
      const body = intake.body as { id: number; steps: { app: string; path: string }[] }
      const token = (app: string) => body.steps.find((step) => step.app === app)!.path.split('#prefill=')[1]!
      const fileByLink = async (app: string, email: string, phoneNumber: string) => {
        const answer = await request(ctx.app)
          .post(`/api/forms/${app}/submissions`)
          .field('data', JSON.stringify(makeClaimData({ email, phoneNumber })))
          .field('journeyToken', token(app))
          .attach('screenshot', makePng({ width: 40, height: 30 }), 'statement.png')
          .expect(201)
        return ctx.db
          .selectFrom('claims')
          .select(['intake_id', 'intake_by_link'])
          .where('id', '=', (answer.body as { id: number }).id)
          .executeTakeFirstOrThrow()
      }
      // someone else's claim through a forwarded link names no intake
      expect(await fileByLink('chime', 'stranger@mail.test', '(808) 555-0199')).toEqual({
        intake_id: null,
        intake_by_link: 0,
      })
      // the claimant with a new phone: the intake's, by its link, so its address is the claim's
      expect(await fileByLink('moneylion', other.email, '(808) 555-0198')).toEqual({
        intake_id: body.id,
        intake_by_link: 1,
      })
    })

    it("keeps a claim its e-mail's owner disowned out of notice batches", async () => {
      const stranger = { email: 'not.me@mail.test', phone: '(808) 555-0144' }
      const intake = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ ...stranger, cashAdvanceApps: ['earnin'] }))
        .expect(201)
      const { id: disownedId } = await seedClaim(ctx, {
        app: 'earnin',
        status: 'approved',
        intake: intake.body as CreatedIntake,
        fields: { email: stranger.email, phoneNumber: stranger.phone },
        screenshot: makePng({ width: 40, height: 30 }),
      })
      // "This wasn't me" from the link in the claim's e-mail copy
      ctx.agreementCopies.wake()
      await ctx.agreementCopies.settled()
      const copyToken = await (async () => {
        const find = () =>
          mailsTo(ctx.dataDir, stranger.email)
            .map(({ eml }) => partOf(eml, 'text/plain'))
            .filter((text) => text.includes('Earnin'))
            .map((text) => /\/confirm#token=([\w-]{43})/.exec(text)?.[1])
            .find((found) => found !== undefined)
        await expect.poll(find).toBeDefined()
        return find()!
      })()
      const answer = await answerLink('/api/confirmations/claim', copyToken)
      expect(answer.body).toMatchObject({ of: 'claim', claimId: disownedId })
      await answerLink('/api/confirmations/not-me', copyToken)

      const candidates = (await staffGet(`${api}/candidates?kind=notice`).expect(200)).body as BatchCandidates
      expect(candidates.claims.map((claim) => claim.claimId)).not.toContain(disownedId)
      const refused = await staffPost(api, { kind: 'notice', claimIds: [disownedId] }).expect(409)
      expect((refused.body as ErrorBody).error.message).toContain(
        `claim ${disownedId}: the owner of its e-mail said they did not file it`,
      )
    })
  })
}
