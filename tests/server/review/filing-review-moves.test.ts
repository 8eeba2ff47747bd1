import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReviewConfig } from '../../../src/review-config.ts'
import { loadReviewConfig, loadReviews } from '../../../server/lifecycle/load-review-config.ts'
import { recordMove } from '../../../server/lifecycle/move-claim.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { ADMIN_EMAIL, createTestContext, DIALECTS, FORMS_DIR, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { seedClaim } from '../support/claims.ts'

const SITE = 'filing-moves.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const DAY_MS = 24 * 60 * 60 * 1000

/** The project's forms, with Earnin's review listing the base's moves but approved → filed and approved → deficient. */
function formsWithoutFilingMoves(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'claims-filing-moves-')), 'forms')
  fs.cpSync(FORMS_DIR, dir, { recursive: true })
  const file = path.join(dir, 'earnin.json')
  const earnin = JSON.parse(fs.readFileSync(file, 'utf8'))
  earnin.review = {
    moves: loadReviewConfig(FORMS_DIR).moves.filter(
      (move) => !(move.from === 'approved' && (move.to === 'filed' || move.to === 'deficient')),
    ),
  }
  fs.writeFileSync(file, JSON.stringify(earnin))
  return dir
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: filing under an app's review without the moves it makes`, () => {
    const formsDir = formsWithoutFilingMoves()
    let ctx: TestContext
    let admin: string
    let review: ReviewConfig
    let ready: number
    let noAddress: number

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { formsDir })
      admin = await loginStaff(ctx.app, { site: SITE })
      review = loadReviews(formsDir, ['earnin'])('earnin')
      const email = 'ready@mail.test'
      const phone = '(808) 555-0301'
      await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ email, phone, lastName: 'Ready', cashAdvanceApps: ['earnin'] }))
        .expect(201)
      ready = (
        await seedClaim(ctx, {
          app: 'earnin',
          status: 'approved',
          fields: { email, phoneNumber: phone, lastName: 'Ready' },
        })
      ).id
      noAddress = (
        await seedClaim(ctx, {
          app: 'earnin',
          status: 'approved',
          fields: { email: 'nomain@mail.test', phoneNumber: '(808) 555-0399', lastName: 'Nomain' },
        })
      ).id
      const account = await ctx.db
        .selectFrom('staff_accounts')
        .select('id')
        .where('email', '=', ADMIN_EMAIL)
        .executeTakeFirstOrThrow()
      // the notice went out 61 days ago: the ready claim may be filed
      const notice = await ctx.db
        .insertInto('filing_batches')
        .values({
          app: 'earnin',
          kind: 'notice',
          status: 'ready',
          problem: null,
          provider: null,
          claim_count: 1,
          created_at: Date.now() - 62 * DAY_MS,
          account_id: Number(account.id),
          actor: ADMIN_EMAIL,
          client_address: '127.0.0.1',
          link_origin: `http://${SITE}`,
          lease_owner: null,
          lease_until: null,
          file_key: null,
          bytes: null,
          sha256: null,
          batch_hash: null,
          sent_on: new Date(Date.now() - 61 * DAY_MS).toISOString().slice(0, 10),
          sent_method: 'mail',
          sent_tracking: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      // the ready claim was in that notice: a batch 61 days old is written, as no request can date one back
      await ctx.db
        .updateTable('claims')
        .set({ notice_batch_id: Number(notice.id) })
        .where('id', '=', ready)
        .execute()
    })
    afterAll(async () => {
      await ctx?.close()
      fs.rmSync(path.dirname(formsDir), { recursive: true, force: true })
    })

    const api = '/api/staff/apps/earnin/batches'
    const post = (url: string, body: object) =>
      request(ctx.app).post(url).set(SAME_SITE).set('Cookie', admin).send(body)
    const claimOf = (id: number) =>
      ctx.db
        .selectFrom('claims')
        .select(['review_status', 'review_version', 'filing_batch_id'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    const count = async (table: 'filing_batches' | 'claim_moves' | 'claim_cures' | 'audit_log') =>
      Number(
        (
          await ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('refuses a filing batch of ready claims with 409 naming the missing move, and writes no batch', async () => {
      const before = { batches: await count('filing_batches'), audit: await count('audit_log') }
      for (const body of [{ kind: 'filing' }, { kind: 'filing', claimIds: [ready] }]) {
        const refused = await post(api, body)
        expect(refused.status).toBe(409)
        expect(refused.body.error.message).toBe('the review config has no move from approved to filed')
      }
      expect({ batches: await count('filing_batches'), audit: await count('audit_log') }).toEqual(before)
      const claim = await claimOf(ready)
      expect([claim.review_status, claim.filing_batch_id]).toEqual(['approved', null])
    })

    it('refuses a cure request with 409 naming the missing move, and moves no claim', async () => {
      const before = { moves: await count('claim_moves'), cures: await count('claim_cures') }
      const refused = await post(`${api}/cure-requests`, { claimIds: [noAddress] })
      expect(refused.status).toBe(409)
      expect(refused.body.error.message).toBe('the review config has no move from approved to deficient')
      expect({ moves: await count('claim_moves'), cures: await count('claim_cures') }).toEqual(before)
      expect((await claimOf(noAddress)).review_status).toBe('approved')
    })

    it("refuses the server's own move to filed that the app's config lacks, writing nothing", async () => {
      const before = await claimOf(ready)
      const moves = await count('claim_moves')
      await expect(
        ctx.db.transaction().execute((trx) =>
          recordMove(trx, {
            evidenceKey: ctx.evidenceKey,
            review,
            claim: { id: ready, app: 'earnin', status: 'approved', version: Number(before.review_version) },
            to: 'filed',
            by: { clientAddress: '127.0.0.1', accountId: null, actor: 'filing batch' },
            mover: 'system',
          }),
        ),
      ).rejects.toMatchObject({
        status: 409,
        message: 'the review config has no move from approved to filed',
      })
      expect(await claimOf(ready)).toEqual(before)
      expect(await count('claim_moves')).toBe(moves)
    })
  })
}
