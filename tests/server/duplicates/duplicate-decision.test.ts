import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClaimReview } from '../../../src/api/review.ts'
import { subjectOf } from '../../../server/evidence/ledger.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'duplicate-decision.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const REVIEWER = { email: 'no-decide@firm.test', password: 'reviewer password 1' }
const BRIGIT_DECIDER = { email: 'brigit-decider@firm.test', password: 'reviewer password 2' }
const BOTH_DECIDER = { email: 'both-decider@firm.test', password: 'reviewer password 3' }
const NOT_YOURS =
  "this pair is not flagged for you to decide: it may be decided already, or it needs a reviewer with the decide right on both claims' apps"

for (const dialect of DIALECTS) {
  describe(`${dialect}: deciding a flagged claim`, () => {
    let ctx: TestContext
    let admin: string
    let reviewer: string
    let brigitDecider: string
    let bothDecider: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      reviewer = await signInNewAccount(ctx, SITE, {
        ...REVIEWER,
        name: 'Nora No-Decide',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
      })
      brigitDecider = await signInNewAccount(ctx, SITE, {
        ...BRIGIT_DECIDER,
        name: 'Bea Brigit',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false, canDecide: true }],
      })
      bothDecider = await signInNewAccount(ctx, SITE, {
        ...BOTH_DECIDER,
        name: 'Bo Both',
        role: 'staff',
        apps: [
          { app: 'brigit', canExport: false, canDecide: true },
          { app: 'earnin', canExport: false, canDecide: true },
        ],
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function insertClaimRow(app = 'brigit'): Promise<number> {
      seq += 1
      const { id } = await insertClaim(ctx.db, {
        app,
        created_at: new Date().toISOString(),
        first_name: 'Dana',
        last_name: 'Double',
        email: `dana${seq}@mail.test`,
        phone_number: `(212) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 1,
        membership_months: 2,
        screenshot_key: 'brigit-screenshots/missing.png',
        screenshot_type: 'image/png',
      })
      return id
    }

    /** Two claims flagged with each other, as the screenshot check records them. */
    async function flaggedPair(otherApp = 'brigit'): Promise<[number, number]> {
      const first = await insertClaimRow()
      const second = await insertClaimRow(otherApp)
      await ctx.db
        .insertInto('screenshot_matches')
        .values([
          { claim_id: first, other_claim_id: second, kind: 'exact', distance: 0 },
          { claim_id: second, other_claim_id: first, kind: 'exact', distance: 0 },
        ])
        .execute()
      return [first, second]
    }

    const decide = (claimId: number, body: Record<string, unknown>, cookie = admin) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/duplicate-decision`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body)
    const reviewOf = async (claimId: number, cookie = admin) =>
      (await request(ctx.app).get(`/api/staff/claims/${claimId}/review`).set('Cookie', cookie).expect(200))
        .body as ClaimReview
    const matchesOf = async (claimId: number) =>
      (
        await ctx.db
          .selectFrom('screenshot_matches')
          .select('other_claim_id')
          .where('claim_id', '=', claimId)
          .execute()
      ).map((row) => Number(row.other_claim_id))
    const countOf = async (table: 'duplicate_decisions' | 'claim_moves') =>
      Number(
        (
          await ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('clears a pair decided not a duplicate for both claims, on the record, and refuses deciding it again', async () => {
      const [first, second] = await flaggedPair()
      const decided = await decide(first, { decision: 'not_duplicate', other: second, version: 0 })
      expect(decided.status).toBe(200)
      expect(decided.body).toEqual({ status: 'received', version: 0, flagged: false })

      expect(await matchesOf(first)).toEqual([])
      expect(await matchesOf(second)).toEqual([])
      const claim = await request(ctx.app).get(`/api/staff/claims/${first}`).set('Cookie', admin).expect(200)
      expect(claim.body.duplicateOf).toEqual([])
      const review = await reviewOf(first)
      expect(review.notDuplicateOf).toMatchObject([{ other: second, actor: 'admin@firm.test' }])
      expect((await reviewOf(second)).notDuplicateOf).toMatchObject([{ other: first }])
      // not a move: the claim's status and history stay as they were
      expect(review).toMatchObject({ status: 'received', version: 0, history: [] })

      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'actor', 'detail'])
        .where('action', '=', 'duplicate_cleared')
        .where('detail', '=', `claim ${first}: not a duplicate of claim ${second}`)
        .executeTakeFirstOrThrow()
      expect(audit.actor).toBe('admin@firm.test')
      const sealed = await ctx.db
        .selectFrom('evidence_ledger')
        .select('subject')
        .where('subject', '=', subjectOf('audit', Number(audit.id)))
        .execute()
      expect(sealed).toHaveLength(1)

      const again = await decide(second, { decision: 'not_duplicate', other: first, version: 0 })
      expect(again.status).toBe(404)
      expect(again.body.error.message).toBe(NOT_YOURS)
    })

    it('moves a claim decided a duplicate as the config says, its note naming the other claim, and keeps it flagged', async () => {
      const [first, second] = await flaggedPair()
      expect((await reviewOf(first)).duplicateMove).toEqual({
        to: 'rejected',
        label: 'Rejected',
        allowed: false,
      })
      expect((await reviewOf(first, reviewer)).duplicateMove).toBeNull()
      // from received the config allows no move to rejected: 409 naming the move it lacks
      const early = await decide(first, { decision: 'duplicate', other: second, version: 0 })
      expect(early.status).toBe(409)
      expect(early.body.error.message).toBe('the review config has no move from received to rejected')

      await request(ctx.app)
        .post(`/api/staff/claims/${first}/moves`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ to: 'in_review', version: 0 })
        .expect(200)
      expect((await reviewOf(first)).duplicateMove).toEqual({
        to: 'rejected',
        label: 'Rejected',
        allowed: true,
      })
      const stale = await decide(first, { decision: 'duplicate', other: second, version: 0 })
      expect(stale.status).toBe(409)
      expect(stale.body.error.message).toMatch(
        /^the claim was moved meanwhile: it is now in_review \(version 1\)/,
      )

      const decided = await decide(first, {
        decision: 'duplicate',
        other: second,
        version: 1,
        note: 'same account number',
      })
      expect(decided.status).toBe(200)
      expect(decided.body).toEqual({ status: 'rejected', version: 2, flagged: true })
      expect((await reviewOf(first)).history.at(-1)).toMatchObject({
        from: 'in_review',
        to: 'rejected',
        reason: 'duplicate',
        note: `Duplicate of claim ${second}. same account number`,
        actor: 'admin@firm.test',
      })
      expect(await matchesOf(first)).toEqual([second])
    })

    it('refuses a reviewer without the decide right, a pair that was never flagged and bad input, storing nothing', async () => {
      const [first, second] = await flaggedPair()
      const lone = await insertClaimRow()
      const [decisions, moves] = [await countOf('duplicate_decisions'), await countOf('claim_moves')]

      expect((await reviewOf(first, reviewer)).mayDecide).toBe(false)
      const refused = await decide(first, { decision: 'not_duplicate', other: second, version: 0 }, reviewer)
      expect(refused.status).toBe(403)
      expect(refused.body.error.message).toBe(
        "deciding whether a claim is a duplicate needs the app's decide right, which an admin grants",
      )
      const unflagged = await decide(first, { decision: 'not_duplicate', other: lone, version: 0 })
      expect(unflagged.status).toBe(404)
      expect(unflagged.body.error.message).toBe(NOT_YOURS)

      for (const [body, message] of [
        [
          { decision: 'maybe', other: second, version: 0 },
          '"decision" must be one of duplicate, not_duplicate',
        ],
        [{ decision: 'duplicate', version: 0 }, '"other" must be the id of the claim it was flagged with'],
        [
          { decision: 'duplicate', other: second, version: 0, note: 'x'.repeat(2001) },
          'the note is over 2,000 characters',
        ],
      ] as const) {
        const res = await decide(first, body)
        expect(res.status).toBe(400)
        expect(res.body.error.message).toBe(message)
      }
      expect([await countOf('duplicate_decisions'), await countOf('claim_moves')]).toEqual([decisions, moves])
      expect(await matchesOf(first)).toEqual([second])
    })

    const statusOf = async (claimId: number) =>
      await ctx.db
        .selectFrom('claims')
        .select(['review_status', 'review_version'])
        .where('id', '=', claimId)
        .executeTakeFirstOrThrow()
    const toInReview = (claimId: number) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/moves`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ to: 'in_review', version: 0 })
        .expect(200)

    it("refuses a decider of one app a pair with another app's claim, changing nothing", async () => {
      const [first, second] = await flaggedPair('earnin')
      await toInReview(first)
      const [decisions, moves] = [await countOf('duplicate_decisions'), await countOf('claim_moves')]
      const before = [await statusOf(first), await statusOf(second)]

      for (const decision of ['not_duplicate', 'duplicate'] as const) {
        const refused = await decide(first, { decision, other: second, version: 1 }, brigitDecider)
        expect(refused.status).toBe(404)
        expect(refused.body.error.message).toBe(NOT_YOURS)
      }

      expect(await matchesOf(first)).toEqual([second])
      expect(await matchesOf(second)).toEqual([first])
      expect([await statusOf(first), await statusOf(second)]).toEqual(before)
      expect([await countOf('duplicate_decisions'), await countOf('claim_moves')]).toEqual([decisions, moves])
    })

    it("answers the same whether the other claim is another app's, decided, or not there, naming no one", async () => {
      const [first, earnin] = await flaggedPair('earnin')
      const [decided, other] = await flaggedPair()
      await decide(decided, { decision: 'not_duplicate', other, version: 0 }).expect(200)

      const refusals = [
        await decide(first, { decision: 'not_duplicate', other: earnin, version: 0 }, brigitDecider),
        await decide(first, { decision: 'not_duplicate', other: 999_999, version: 0 }, brigitDecider),
        await decide(decided, { decision: 'not_duplicate', other, version: 0 }, brigitDecider),
      ]
      for (const refused of refusals) {
        expect(refused.status).toBe(404)
        expect(refused.body).toEqual(refusals[1]!.body)
        expect(JSON.stringify(refused.body)).not.toContain('@')
        expect(JSON.stringify(refused.body)).not.toContain(String(earnin))
      }
    })

    it('lets a decider of both apps decide a pair across them', async () => {
      const [first, second] = await flaggedPair('earnin')
      const cleared = await decide(
        first,
        { decision: 'not_duplicate', other: second, version: 0 },
        bothDecider,
      )
      expect(cleared.status).toBe(200)
      expect(cleared.body).toEqual({ status: 'received', version: 0, flagged: false })
      expect(await matchesOf(first)).toEqual([])
      expect(await matchesOf(second)).toEqual([])

      const [third, fourth] = await flaggedPair('earnin')
      await toInReview(third)
      const rejected = await decide(third, { decision: 'duplicate', other: fourth, version: 1 }, bothDecider)
      expect(rejected.status).toBe(200)
      expect(rejected.body).toEqual({ status: 'rejected', version: 2, flagged: true })
    })
  })
}
