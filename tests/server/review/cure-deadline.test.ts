import request from 'supertest'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { CureView } from '../../../src/api/cure.ts'
import type { ClaimReview } from '../../../src/api/review.ts'
import { mailsTo, plainTextOf } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, makeClaimData, makePng, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'cure-deadline.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const MINUTE = 60 * 1000
const LOS_ANGELES = 'America/Los_Angeles'

const wallClock = (at: number, timeZone: string) => new Date(at).toLocaleString('sv-SE', { timeZone })

for (const dialect of DIALECTS) {
  describe(`${dialect}: a cure period ends once, at the end of its last day where the claimant lives`, () => {
    let ctx: TestContext
    let admin: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterEach(() => {
      vi.useRealTimers()
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** An Earnin claim brought by the Step 2 link of a main form from `state`, made deficient. */
    async function deficientClaimFrom(state: { state: string; city: string; zipCode: string }) {
      seq += 1
      const email = `deadline${seq}@mail.test`
      const phone = `(415) 555-${String(seq).padStart(4, '0')}`
      const intake = (
        await request(ctx.app)
          .post('/api/intake')
          .send(makeIntakeData({ email, phone, cashAdvanceApps: ['earnin'], ...state }))
          .expect(201)
      ).body as CreatedIntake
      const journeyToken = intake.steps[0]!.path.split('#prefill=')[1]!
      const filed = await request(ctx.app)
        .post('/api/forms/earnin/submissions')
        .field('data', JSON.stringify(makeClaimData({ email, phoneNumber: phone })))
        .field('journeyToken', journeyToken)
        .attach('screenshot', makePng({ width: 40, height: 30 }), 'statement.png')
        .expect(201)
      const claimId = Number(filed.body.id)
      await move(claimId, { to: 'in_review', version: 0 }).expect(200)
      await move(claimId, { to: 'deficient', reason: 'screenshot_unreadable', version: 1 }).expect(200)
      await ctx.claimCures.settled()
      await ctx.claimCures.runDue()
      const mail = mailsTo(ctx.dataDir, email).find(({ eml }) => /needs a correction/.test(eml))!
      const text = plainTextOf(mail.eml)
      const token = /\/cure#token=([\w-]{43})/.exec(text)![1]!
      const stored = await ctx.db
        .selectFrom('claim_cures')
        .select('expires_at')
        .where('claim_id', '=', claimId)
        .executeTakeFirstOrThrow()
      return { claimId, token, text, expiresAt: Number(stored.expires_at), review: await reviewOf(claimId) }
    }

    const move = (claimId: number, body: Record<string, unknown>) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/moves`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send(body)
    const reviewOf = async (claimId: number) =>
      (await request(ctx.app).get(`/api/staff/claims/${claimId}/review`).set('Cookie', admin).expect(200))
        .body as ClaimReview
    const open = (token: string) => request(ctx.app).post('/api/cures/open').set(SAME_SITE).send({ token })
    const cure = (token: string) =>
      request(ctx.app)
        .post('/api/cures')
        .set(SAME_SITE)
        .field('data', JSON.stringify({ token }))
        .attach('screenshot', makePng({ width: 64, height: 48 }), 'new.png')
    /** The claimant's clock, moved for the claimant's requests only. */
    const at = (time: number) => {
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(time)
    }

    it('gives the staff API, the e-mail and the cure page the same instant: 23:59:59.999 on the last day in California', async () => {
      const { text, expiresAt, review, token } = await deficientClaimFrom({
        state: 'CA',
        city: 'Los Angeles',
        zipCode: '90012',
      })
      expect(wallClock(expiresAt, LOS_ANGELES).slice(11)).toBe('23:59:59')
      expect(expiresAt % 1000).toBe(999)
      expect(review.cure!.expiresAt).toBe(new Date(expiresAt).toISOString())
      const lastDay = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: LOS_ANGELES }).format(
        expiresAt,
      )
      expect(text).toContain(`Please fix it by ${lastDay} with the button below`)
      const view = (await open(token).expect(200)).body as CureView
      expect(view).toMatchObject({ expiresAt: review.cure!.expiresAt, timeZone: LOS_ANGELES })
    })

    it("takes a Californian's corrections at 23:30 on the last day there", async () => {
      const { claimId, token, expiresAt } = await deficientClaimFrom({
        state: 'CA',
        city: 'Los Angeles',
        zipCode: '90012',
      })
      const halfPastEleven = expiresAt + 1 - 30 * MINUTE
      expect(wallClock(halfPastEleven, LOS_ANGELES).slice(11)).toBe('23:30:00')
      at(halfPastEleven)
      await open(token).expect(200)
      await cure(token).expect(201)
      vi.useRealTimers()
      const review = await reviewOf(claimId)
      expect(review.status).toBe('cured')
      expect(review.cure).toMatchObject({
        endedAt: new Date(halfPastEleven).toISOString(),
        expiresAt: new Date(expiresAt).toISOString(),
        outcome: 'cured',
      })
    })

    it('refuses a Californian at 00:01 the next day there, and the period ends as not cured', async () => {
      const { claimId, token, expiresAt } = await deficientClaimFrom({
        state: 'CA',
        city: 'Los Angeles',
        zipCode: '90012',
      })
      const oneMinutePast = expiresAt + 1 + MINUTE
      expect(wallClock(oneMinutePast, LOS_ANGELES).slice(11)).toBe('00:01:00')
      at(oneMinutePast)
      expect((await open(token).expect(410)).body.error.message).toBe('The time to fix this claim has ended.')
      await cure(token).expect(410)
      vi.useRealTimers()
      await ctx.claimCures.runDue(oneMinutePast)
      const review = await reviewOf(claimId)
      expect(review.status).toBe('not_cured')
      expect(review.cure).toMatchObject({
        outcome: 'expired',
        endedAt: new Date(oneMinutePast).toISOString(),
      })
    })

    it("counts the days in a New Yorker's zone, not the firm's", async () => {
      const { expiresAt, text, review } = await deficientClaimFrom({
        state: 'NY',
        city: 'New York',
        zipCode: '10001',
      })
      expect(wallClock(expiresAt, 'America/New_York').slice(11)).toBe('23:59:59')
      expect(wallClock(expiresAt, LOS_ANGELES).slice(11)).toBe('20:59:59')
      const lastDay = new Intl.DateTimeFormat('en', {
        dateStyle: 'long',
        timeZone: 'America/New_York',
      }).format(expiresAt)
      expect(text).toContain(`Please fix it by ${lastDay} with the button below`)
      expect(review.cure!.expiresAt).toBe(new Date(expiresAt).toISOString())
    })
  })
}
