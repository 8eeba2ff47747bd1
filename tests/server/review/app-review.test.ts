import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClaimReview } from '../../../src/api/review.ts'
import { createTestContext, DIALECTS, FORMS_DIR, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'app-review.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const DAY_MS = 24 * 60 * 60 * 1000

/** The project's forms, with Brigit's review changed in its own file: a shorter cure and one more reason. */
function formsWithBrigitReview(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'claims-app-review-')), 'forms')
  fs.cpSync(FORMS_DIR, dir, { recursive: true })
  const file = path.join(dir, 'brigit.json')
  const brigit = JSON.parse(fs.readFileSync(file, 'utf8'))
  brigit.review = {
    curePeriodDays: 7,
    reasons: {
      no_account: {
        label: 'No Brigit account found',
        fix: ['screenshot'],
        text: {
          en: 'We could not find your Brigit account. Please upload a screenshot showing it.',
          es: 'No encontramos su cuenta de Brigit. Suba una captura de pantalla que la muestre.',
        },
      },
    },
  }
  fs.writeFileSync(file, JSON.stringify(brigit))
  return dir
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: an app's own review`, () => {
    let ctx: TestContext
    let admin: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { formsDir: formsWithBrigitReview() })
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function claimInReview(app: string): Promise<number> {
      seq += 1
      const { id } = await insertClaim(ctx.db, {
        app,
        created_at: new Date().toISOString(),
        first_name: 'Avery',
        last_name: 'Appwise',
        email: `avery${seq}@mail.test`,
        phone_number: `(312) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 1,
        membership_months: 3,
        screenshot_key: `${app}-screenshots/missing.png`,
        screenshot_type: 'image/png',
      })
      await move(id, { to: 'in_review', version: 0 }).expect(200)
      return id
    }
    const move = (claimId: number, body: Record<string, unknown>) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/moves`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send(body)
    const reasonsOf = async (claimId: number) =>
      (
        (await request(ctx.app).get(`/api/staff/claims/${claimId}/review`).set('Cookie', admin).expect(200))
          .body as ClaimReview
      ).reasons.map((reason) => reason.name)

    it("offers and takes the app's own reason, keeps the base's, and opens the app's cure period", async () => {
      const brigit = await claimInReview('brigit')
      const reasons = await reasonsOf(brigit)
      expect(reasons).toContain('no_account')
      expect(reasons).toContain('screenshot_unreadable')
      const stats = await request(ctx.app)
        .get('/api/staff/apps/brigit/stats')
        .set('Cookie', admin)
        .expect(200)
      expect(stats.body.reasons).toContainEqual({ name: 'no_account', label: 'No Brigit account found' })

      await move(brigit, { to: 'deficient', reason: 'no_account', version: 1 }).expect(200)
      const cure = await ctx.db
        .selectFrom('claim_cures')
        .select(['started_at', 'expires_at'])
        .where('claim_id', '=', brigit)
        .executeTakeFirstOrThrow()
      // to the end of the period's last day in the claimant's zone
      expect(Number(cure.expires_at) - Number(cure.started_at)).toBeGreaterThanOrEqual(7 * DAY_MS)
      expect(Number(cure.expires_at) - Number(cure.started_at)).toBeLessThan(8 * DAY_MS)
      const filtered = await request(ctx.app)
        .get('/api/staff/apps/brigit/submissions?reason=no_account')
        .set('Cookie', admin)
        .expect(200)
      expect(filtered.body.data.map((claim: { id: number }) => claim.id)).toEqual([brigit])
    })

    it("keeps every other app on the base review: the reason is unknown there and the period is the base's", async () => {
      const cleo = await claimInReview('cleo')
      expect(await reasonsOf(cleo)).not.toContain('no_account')
      const refused = await move(cleo, { to: 'deficient', reason: 'no_account', version: 1 })
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toMatch(
        /^unknown reason "no_account": use one of screenshot_unreadable, /,
      )
      await request(ctx.app)
        .get('/api/staff/apps/cleo/submissions?reason=no_account')
        .set('Cookie', admin)
        .expect(400)
      await move(cleo, { to: 'deficient', reason: 'screenshot_unreadable', version: 1 }).expect(200)
      const cure = await ctx.db
        .selectFrom('claim_cures')
        .select(['started_at', 'expires_at'])
        .where('claim_id', '=', cleo)
        .executeTakeFirstOrThrow()
      // to the end of the period's last day in the claimant's zone
      expect(Number(cure.expires_at) - Number(cure.started_at)).toBeGreaterThanOrEqual(14 * DAY_MS)
      expect(Number(cure.expires_at) - Number(cure.started_at)).toBeLessThan(15 * DAY_MS)
    })
  })
}
