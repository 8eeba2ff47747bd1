import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClaimReview } from '../../../src/api/review.ts'
import { subjectOf } from '../../../server/evidence/ledger.ts'
import { loadReviewConfig } from '../../../server/lifecycle/load-review-config.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { createTestContext, DIALECTS, FORMS_DIR, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { seedClaim } from '../support/claims.ts'

const SITE = 'review.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const REVIEWER = { email: 'reviewer@firm.test', password: 'reviewer password 1' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: reviewing a claim`, () => {
    let ctx: TestContext
    let admin: string
    let reviewer: string
    let reviewerId: number
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      reviewerId = await createAccount(ctx.db, {
        ...REVIEWER,
        name: 'Rae Reviewer',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
      })
      reviewer = await loginStaff(ctx.app, { site: SITE, ...REVIEWER })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** A claim of a claimant of its own, filed and moved to `status` (seedClaim): its id and review version. */
    function claimIn(status = 'received', { app = 'brigit', lang }: { app?: string; lang?: string } = {}) {
      seq += 1
      return seedClaim(ctx, {
        app,
        status,
        lang,
        fields: {
          firstName: 'Rene',
          lastName: 'Review',
          email: `rene${seq}@mail.test`,
          phoneNumber: `(212) 555-${String(seq).padStart(4, '0')}`,
        },
      })
    }

    const reviewOf = async (claimId: number, cookie = admin) =>
      (await request(ctx.app).get(`/api/staff/claims/${claimId}/review`).set('Cookie', cookie).expect(200))
        .body as ClaimReview
    const move = (claimId: number, body: Record<string, unknown>, cookie = admin) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/moves`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body)
    const movesOf = (claimId: number) =>
      ctx.db.selectFrom('claim_moves').selectAll().where('claim_id', '=', claimId).orderBy('id').execute()
    const countRows = async (table: 'claim_moves' | 'audit_log' | 'evidence_ledger') =>
      Number(
        (
          await ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    it('starts every claim received, with the moves the config allows from there', async () => {
      const { id: claimId } = await claimIn()
      const review = await reviewOf(claimId)
      expect(review).toMatchObject({
        claimId,
        app: 'brigit',
        status: 'received',
        version: 0,
        // a decider approves a clear claim in one move; one that needs a closer look goes into review
        moves: [
          { to: 'in_review', label: 'In review', needsReason: false },
          { to: 'approved', label: 'Approved', needsReason: false },
        ],
        history: [],
      })
      expect(review.statusLabels.not_cured).toBe('Not cured')
      expect(review.reasons.at(-1)).toEqual({ name: 'other', label: 'Other', freeText: true })
      // the reviewer reads what the deficiency notice will tell the claimant
      expect(review.reasons[0]).toEqual({
        name: 'screenshot_unreadable',
        label: 'Screenshot unreadable',
        freeText: false,
        text: 'We could not read your bank statement screenshot. Please upload a clearer one.',
      })
    })

    it("previews a reason's notice in the claim's language, for the move that sends it", async () => {
      const { id: claimId } = await claimIn('in_review', { lang: 'es' })
      const review = await reviewOf(claimId)
      expect(review.reasons[0]!.text).toBe(
        'No pudimos leer la captura de pantalla de su estado de cuenta. Suba una más clara.',
      )
      expect(review.moves.map((move) => [move.to, move.sendsNotice])).toEqual([
        ['approved', false],
        ['deficient', true],
        ['rejected', false],
      ])
    })

    it('moves a claim into review and marks it deficient with a reason, each move with its audit and ledger entry', async () => {
      const { id: claimId } = await claimIn()
      const first = await move(claimId, { to: 'in_review', version: 0 })
      expect(first.status).toBe(200)
      expect(first.body).toEqual({ status: 'in_review', version: 1 })
      const second = await move(claimId, {
        to: 'deficient',
        reason: 'screenshot_unreadable',
        note: 'the figures are blurred',
        version: 1,
      })
      expect(second.status).toBe(200)

      const review = await reviewOf(claimId)
      expect(review.status).toBe('deficient')
      expect(review.version).toBe(2)
      expect(review.moves.map((each) => each.to)).toEqual([])
      expect(review.history).toMatchObject([
        { from: 'received', to: 'in_review', reason: null, note: null, actor: 'admin@firm.test' },
        {
          from: 'in_review',
          to: 'deficient',
          reason: 'screenshot_unreadable',
          note: 'the figures are blurred',
          actor: 'admin@firm.test',
        },
      ])
      const moves = await movesOf(claimId)
      const audits = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'action', 'detail', 'actor', 'app'])
        .where(
          'id',
          'in',
          moves.map((each) => Number(each.audit_id)),
        )
        .orderBy('id')
        .execute()
      expect(audits.map(({ id: _id, ...rest }) => rest)).toEqual([
        {
          action: 'claim_moved',
          detail: `claim ${claimId}: received → in_review`,
          actor: 'admin@firm.test',
          app: 'brigit',
        },
        {
          action: 'claim_moved',
          detail: `claim ${claimId}: in_review → deficient (screenshot_unreadable)`,
          actor: 'admin@firm.test',
          app: 'brigit',
        },
      ])
      // the note is internal and may name the claimant: it stays out of the audit line
      expect(audits.some((entry) => entry.detail?.includes('blurred'))).toBe(false)
      const sealed = await ctx.db
        .selectFrom('evidence_ledger')
        .select('subject')
        .where(
          'subject',
          'in',
          audits.map((entry) => subjectOf('audit', Number(entry.id))),
        )
        .execute()
      expect(sealed).toHaveLength(2)
    })

    it('refuses a move the config does not allow with 409 naming the move it lacks, and stores nothing', async () => {
      const { id: claimId } = await claimIn()
      // the test before made a claim deficient: its notice is sent, and put on record, in the background
      await ctx.claimCures.settled()
      const before = { moves: await countRows('claim_moves'), audit: await countRows('audit_log') }
      const res = await move(claimId, { to: 'withdrawn', version: 0 })
      expect(res.status).toBe(409)
      expect(res.body.error.message).toBe('the review config has no move from received to withdrawn')
      expect({ moves: await countRows('claim_moves'), audit: await countRows('audit_log') }).toEqual(before)
      expect((await reviewOf(claimId)).status).toBe('received')
    })

    it("refuses an admin the server's own move, approved → filed, with 409, and stores nothing", async () => {
      const { id: claimId, version } = await claimIn('approved')
      const res = await move(claimId, { to: 'filed', version })
      expect(res.status).toBe(409)
      expect(res.body.error.message).toBe(
        "the review config's move from approved to filed is for the server, not a reviewer",
      )
      expect((await reviewOf(claimId)).status).toBe('approved')
      // the moves that brought it to approved, one a version, and no more
      expect(await movesOf(claimId)).toHaveLength(version)
    })

    it("refuses a move from a stale version with 409 and the claim's current status", async () => {
      const { id: claimId } = await claimIn()
      await move(claimId, { to: 'in_review', version: 0 }).expect(200)
      const res = await move(claimId, { to: 'in_review', version: 0 })
      expect(res.status).toBe(409)
      expect(res.body.error.message).toBe(
        'the claim was moved meanwhile: it is now in_review (version 1); reload it and try again',
      )
      expect(await movesOf(claimId)).toHaveLength(1)
    })

    it('lets one of two reviewers moving the same claim at once win; the other gets 409 and nothing is lost', async () => {
      const { id: claimId } = await claimIn()
      const [a, b] = await Promise.all([
        move(claimId, { to: 'in_review', note: 'admin', version: 0 }),
        move(claimId, { to: 'in_review', note: 'reviewer', version: 0 }, reviewer),
      ])
      expect([a.status, b.status].sort()).toEqual([200, 409])
      const moves = await movesOf(claimId)
      expect(moves.map((each) => each.to_status)).toEqual(['in_review'])
      expect(moves[0]!.note).toBe(a.status === 200 ? 'admin' : 'reviewer')
      expect(await reviewOf(claimId)).toMatchObject({ status: 'in_review', version: 1 })
    })

    const STATUSES =
      'received, in_review, approved, deficient, rejected, cured, not_cured, filed, awarded, withdrawn'
    const REASONS =
      'screenshot_unreadable, screenshot_wrong_app, name_differs, duplicate, under_18, signature_unclear, details_missing, account_unverified, other'
    it.each([
      ['an unknown status', { to: 'done', version: 0 }, `unknown status "done": use one of ${STATUSES}`],
      [
        'an unknown reason',
        { to: 'deficient', reason: 'looks_odd', version: 1 },
        `unknown reason "looks_odd": use one of ${REASONS}`,
      ],
      [
        'a move to deficient without a reason',
        { to: 'deficient', version: 1 },
        `a move to deficient needs a reason: one of ${REASONS}`,
      ],
      [
        '"other" without its text',
        { to: 'deficient', reason: 'other', version: 1 },
        'the reason "other" needs a text for the claimant (reasonText)',
      ],
      [
        'a note of 2,001 characters',
        { to: 'in_review', note: 'x'.repeat(2001), version: 0 },
        'the note is over 2,000 characters',
      ],
      [
        'a version that is text',
        { to: 'in_review', version: '0' },
        '"version" must be the claim\'s review version, a whole number',
      ],
      ['no version', { to: 'in_review' }, '"version" must be the claim\'s review version, a whole number'],
    ])('refuses %s with 400 naming the problem, and stores nothing', async (_label, body, message) => {
      const { id: claimId } = await claimIn()
      const before = await countRows('claim_moves')
      const res = await move(claimId, body)
      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(message)
      expect(await countRows('claim_moves')).toBe(before)
    })

    it('keeps a free-text reason and a note of exactly 2,000 characters', async () => {
      const { id: claimId } = await claimIn()
      await move(claimId, { to: 'in_review', note: 'n'.repeat(2000), version: 0 }).expect(200)
      await move(claimId, {
        to: 'deficient',
        reason: 'other',
        reasonText: '  Please send the page that shows the dates.  ',
        version: 1,
      }).expect(200)
      const moves = await movesOf(claimId)
      expect(moves[0]!.note).toHaveLength(2000)
      expect(moves[1]).toMatchObject({
        reason: 'other',
        reason_text: 'Please send the page that shows the dates.',
      })
    })

    it('lets a reviewer without the decide right move claims into review, but not approve them', async () => {
      const { id: claimId } = await claimIn()
      await move(claimId, { to: 'in_review', version: 0 }, reviewer).expect(200)
      expect((await reviewOf(claimId, reviewer)).moves.map((each) => each.to)).toEqual([])
      const refused = await move(claimId, { to: 'approved', version: 1 }, reviewer)
      expect(refused.status).toBe(403)
      expect(refused.body.error.message).toBe(
        "moving a claim to approved needs the app's decide right, which an admin grants",
      )
      expect(await movesOf(claimId)).toHaveLength(1)
    })

    it.each([
      { from: 'approved', to: 'withdrawn' },
      { from: 'filed', to: 'withdrawn' },
      { from: 'approved', to: 'deficient', reason: 'screenshot_unreadable' },
      { from: 'in_review', to: 'deficient', reason: 'screenshot_unreadable' },
    ])(
      'refuses a reviewer without the decide right $from → $to with 403 and offers it only to an admin',
      async ({ from, to, reason }) => {
        const { id: claimId, version } = await claimIn(from)
        const sent = { to, reason, version }
        expect((await reviewOf(claimId, reviewer)).moves.map((each) => each.to)).not.toContain(to)
        const refused = await move(claimId, sent, reviewer)
        expect(refused.status).toBe(403)
        expect(refused.body.error.message).toBe(
          `moving a claim to ${to} needs the app's decide right, which an admin grants`,
        )
        const claim = await ctx.db
          .selectFrom('claims')
          .select(['review_status', 'review_version'])
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
        expect([claim.review_status, Number(claim.review_version)]).toEqual([from, version])
        expect(await movesOf(claimId)).toHaveLength(version)

        expect((await reviewOf(claimId)).moves.map((each) => each.to)).toContain(to)
        await move(claimId, sent).expect(200)
        expect((await reviewOf(claimId)).status).toBe(to)
      },
    )

    it('offers a reviewer without the decide right, from every status, no move into a final status and none out of approved or filed, and refuses each admin move they are not offered with 403', async () => {
      const review = loadReviewConfig(FORMS_DIR)
      const replayed: string[] = []
      for (const from of Object.keys(review.statuses)) {
        const { id: claimId, version } = await claimIn(from)
        const offered = (await reviewOf(claimId, reviewer)).moves.map((each) => each.to)
        expect(
          offered.filter((to) => review.statuses[to]!.final === true),
          `${from}: final statuses offered`,
        ).toEqual([])
        if (from === 'approved' || from === 'filed') expect(offered, `${from}: moves offered`).toEqual([])
        const withheld = (await reviewOf(claimId)).moves.filter((each) => !offered.includes(each.to))
        for (const { to, needsReason } of withheld) {
          const sent = { to, reason: needsReason ? 'screenshot_unreadable' : undefined, version }
          const refused = await move(claimId, sent, reviewer)
          expect(refused.status, `${from} → ${to}`).toBe(403)
          replayed.push(`${from} → ${to}`)
          const claim = await ctx.db
            .selectFrom('claims')
            .select(['review_status', 'review_version'])
            .where('id', '=', claimId)
            .executeTakeFirstOrThrow()
          expect([claim.review_status, Number(claim.review_version)]).toEqual([from, version])
        }
        expect(await movesOf(claimId)).toHaveLength(version)
      }
      expect(replayed).toEqual(
        expect.arrayContaining(['approved → withdrawn', 'approved → deficient', 'filed → withdrawn']),
      )
    })

    it('lets a reviewer approve once an admin grants the decide right, which the audit names', async () => {
      const { id: claimId } = await claimIn()
      await move(claimId, { to: 'in_review', version: 0 }, reviewer).expect(200)
      await request(ctx.app)
        .put(`/api/staff/accounts/${reviewerId}/access`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ role: 'staff', apps: [{ app: 'brigit', canExport: false, canDecide: true }] })
        .expect(200)
      const access = await ctx.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'account_changed')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(access.detail).toContain('apps brigit (decide)')
      const session = await loginStaff(ctx.app, { site: SITE, ...REVIEWER })
      expect((await reviewOf(claimId, session)).moves.map((each) => each.to)).toEqual([
        'approved',
        'deficient',
        'rejected',
      ])
      await move(claimId, { to: 'approved', version: 1 }, session).expect(200)
      expect((await reviewOf(claimId, session)).status).toBe('approved')
    })

    it('refuses a claim of an app the reviewer may not see with 403, one that does not exist with 404, and both without a session with 401', async () => {
      const { id: cleo } = await claimIn('received', { app: 'cleo' })
      const reviewer = await loginStaff(ctx.app, { site: SITE, ...REVIEWER })
      const view = await request(ctx.app).get(`/api/staff/claims/${cleo}/review`).set('Cookie', reviewer)
      expect(view.status).toBe(403)
      expect(view.body.error.message).toBe('your account has no access to this app')
      const res = await move(cleo, { to: 'in_review', version: 0 }, reviewer)
      expect(res.status).toBe(403)
      const missing = await move(999_999, { to: 'in_review', version: 0 })
      expect(missing.status).toBe(404)
      expect(missing.body.error.message).toBe('no claim "999999"')
      await request(ctx.app).get(`/api/staff/claims/${cleo}/review`).expect(401)
      await request(ctx.app)
        .post(`/api/staff/claims/${cleo}/moves`)
        .set(SAME_SITE)
        .send({ to: 'in_review', version: 0 })
        .expect(401)
      expect(await movesOf(cleo)).toHaveLength(0)
    })
  })
}
