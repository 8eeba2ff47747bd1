import type { Insertable } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkMoveJob } from '../../../src/api/bulk-moves.ts'
import type { ClaimsTable } from '../../../server/db/database.ts'
import { subjectOf } from '../../../server/evidence/ledger.ts'
import { createLogger } from '../../../server/logger.ts'
import { createBulkMoves } from '../../../server/review/bulk-moves.ts'
import { loadReviews } from '../../../server/lifecycle/load-review-config.ts'
import { createTestContext, DIALECTS, FORMS_DIR, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

const NONE = { count: 0, ids: [] }
const SITE = 'bulk.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const REVIEWER = { email: 'bulk-reviewer@firm.test', password: 'reviewer password 1' }
const DECIDER = { email: 'bulk-decider@firm.test', password: 'decider password 1' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: bulk moves`, () => {
    let ctx: TestContext
    let admin: string
    let reviewer: string
    let decider: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      reviewer = await signInNewAccount(ctx, SITE, {
        ...REVIEWER,
        name: 'Rae Reviewer',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
      })
      decider = await signInNewAccount(ctx, SITE, {
        ...DECIDER,
        name: 'Dee Decider',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false, canDecide: true }],
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** Claims of one surname (a search term no other test uses), in these statuses. */
    async function seedClaims(
      lastName: string,
      statuses: string[],
      overrides: Partial<Insertable<ClaimsTable>> = {},
    ): Promise<number[]> {
      const ids: number[] = []
      for (const status of statuses) {
        seq += 1
        const { id } = await insertClaim(ctx.db, {
          app: 'brigit',
          created_at: new Date().toISOString(),
          first_name: 'Bea',
          last_name: lastName,
          email: `bea${seq}@mail.test`,
          phone_number: `(646) 555-${String(seq).padStart(4, '0')}`,
          cash_advance_count: 2,
          membership_months: 4,
          screenshot_key: 'brigit-screenshots/missing.png',
          screenshot_type: 'image/png',
          review_status: status,
          ...overrides,
        })
        ids.push(id)
      }
      return ids
    }

    const post = (path: string, body: Record<string, unknown>, cookie = admin) =>
      request(ctx.app).post(path).set(SAME_SITE).set('Cookie', cookie).send(body)
    const preview = (body: Record<string, unknown>, cookie = admin, app = 'brigit') =>
      post(`/api/staff/apps/${app}/bulk-moves/preview`, body, cookie)
    const start = (body: Record<string, unknown>, cookie = admin, app = 'brigit') =>
      post(`/api/staff/apps/${app}/bulk-moves`, body, cookie)
    const jobOf = async (id: number, cookie = admin) =>
      (await request(ctx.app).get(`/api/staff/bulk-moves/${id}`).set('Cookie', cookie).expect(200))
        .body as BulkMoveJob
    /** The job's own loop runs it once woken; this waits for it and any other queued. */
    const finishJobs = async () => {
      await ctx.bulkMoves.runDue()
      await ctx.bulkMoves.settled()
    }
    /** The app's own runner stopped, as a process that died; a new one, as the next process, takes over. */
    const replaceRunner = async () => {
      await ctx.bulkMoves.stop()
      ctx.bulkMoves = createBulkMoves({
        db: ctx.db,
        reviews: loadReviews(FORMS_DIR, []),
        evidenceKey: ctx.evidenceKey,
        logger: createLogger('silent'),
      })
    }
    const statusesOf = async (ids: number[]) =>
      (
        await ctx.db
          .selectFrom('claims')
          .select(['id', 'review_status', 'review_version'])
          .where('id', 'in', ids)
          .orderBy('id')
          .execute()
      ).map((row) => [row.review_status, Number(row.review_version)])
    const countRows = async (table: 'bulk_moves' | 'bulk_move_claims' | 'claim_moves' | 'audit_log') =>
      Number(
        (
          await ctx.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )

    it("previews how many of the filter's claims would move, from which statuses, and which cannot", async () => {
      await seedClaims('Previewson', ['received', 'received', 'received', 'approved', 'in_review'])
      const res = await preview({ to: 'in_review', filter: { q: 'Previewson' } })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        count: 3,
        from: { received: 3 },
        skipped: { in_review: 1, approved: 1 },
        attention: { flagged: NONE, disowned: NONE, unconfirmed: NONE },
      })
      const narrowed = await preview({ to: 'in_review', filter: { q: 'Previewson', status: 'approved' } })
      expect(narrowed.body).toEqual({
        count: 0,
        from: {},
        skipped: { approved: 1 },
        attention: { flagged: NONE, disowned: NONE, unconfirmed: NONE },
      })
      const decided = await preview({ to: 'approved', filter: { q: 'Previewson' } })
      // a decider may approve a received claim in one move, so the received ones go too
      expect(decided.body).toEqual({
        count: 4,
        from: { in_review: 1, received: 3 },
        skipped: { approved: 1 },
        attention: { flagged: NONE, disowned: NONE, unconfirmed: NONE },
      })
    })

    it('names the claims to look at first among those that would move: flagged, disowned, main form not confirmed', async () => {
      const [flagged, twin, disowned, unconfirmed, plain] = await seedClaims('Lookfirst', [
        'received',
        'received',
        'received',
        'received',
        'received',
      ])
      await ctx.db
        .insertInto('screenshot_matches')
        .values([
          { claim_id: flagged!, other_claim_id: twin!, kind: 'exact', distance: 0 },
          { claim_id: twin!, other_claim_id: flagged!, kind: 'exact', distance: 0 },
        ])
        .execute()
      await ctx.db
        .updateTable('claims')
        .set({ disowned_at: Date.now() })
        .where('id', '=', disowned!)
        .execute()
      // someone's main form with the claim's e-mail and phone, not confirmed from that e-mail
      const contact = await ctx.db
        .selectFrom('claims')
        .select(['email', 'phone_number'])
        .where('id', '=', unconfirmed!)
        .executeTakeFirstOrThrow()
      await request(ctx.app)
        .post('/api/intake')
        .send(
          makeIntakeData({ email: contact.email, phone: contact.phone_number, cashAdvanceApps: ['earnin'] }),
        )
        .expect(201)
      const res = await preview({ to: 'in_review', filter: { q: 'Lookfirst' } })
      expect(res.body).toEqual({
        count: 5,
        from: { received: 5 },
        skipped: {},
        attention: {
          flagged: { count: 2, ids: [flagged, twin] },
          disowned: { count: 1, ids: [disowned] },
          unconfirmed: { count: 1, ids: [unconfirmed] },
        },
      })
      expect(plain).toBeGreaterThan(unconfirmed!)
    })

    it('previews the checked rows by their ids', async () => {
      const ids = await seedClaims('Checkedrow', ['received', 'received', 'rejected'])
      const res = await preview({ to: 'in_review', ids })
      expect(res.body).toEqual({
        count: 3,
        from: { received: 2, rejected: 1 },
        skipped: {},
        attention: { flagged: NONE, disowned: NONE, unconfirmed: NONE },
      })
    })

    it("moves a filter's claims in a background job, skipping those whose status does not allow it, each with its move, audit and ledger entry", async () => {
      const ids = await seedClaims('Bulkmoveson', ['received', 'received', 'received', 'approved'])
      const before = { moves: await countRows('claim_moves') }
      const res = await start({
        to: 'in_review',
        note: 'first pass of the week',
        filter: { q: 'Bulkmoveson' },
      })
      expect(res.status).toBe(202)
      expect(res.body).toEqual({ id: expect.any(Number), total: 4 })
      await finishJobs()
      expect(await jobOf(res.body.id)).toEqual({
        id: res.body.id,
        app: 'brigit',
        to: 'in_review',
        status: 'done',
        total: 4,
        moved: 3,
        skipped: 1,
      })
      expect(await statusesOf(ids)).toEqual([
        ['in_review', 1],
        ['in_review', 1],
        ['in_review', 1],
        ['approved', 0],
      ])
      const moves = await ctx.db
        .selectFrom('claim_moves')
        .selectAll()
        .where('claim_id', 'in', ids)
        .orderBy('claim_id')
        .execute()
      expect(
        moves.map((move) => [Number(move.claim_id), move.from_status, move.to_status, move.note]),
      ).toEqual(ids.slice(0, 3).map((id) => [id, 'received', 'in_review', 'first pass of the week']))
      expect(await countRows('claim_moves')).toBe(before.moves + 3)
      const audits = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'action', 'detail', 'actor'])
        .where(
          'id',
          'in',
          moves.map((move) => Number(move.audit_id)),
        )
        .orderBy('id')
        .execute()
      expect(audits.map(({ action, detail, actor }) => ({ action, detail, actor }))).toEqual(
        ids.slice(0, 3).map((id) => ({
          action: 'claim_moved',
          detail: `claim ${id}: received → in_review`,
          actor: 'admin@firm.test',
        })),
      )
      const bulk = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'detail', 'actor', 'app'])
        .where('action', '=', 'bulk_move')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(bulk).toMatchObject({
        detail: `bulk move ${res.body.id}: 3 claims → in_review, 1 skipped`,
        actor: 'admin@firm.test',
        app: 'brigit',
      })
      const sealed = await ctx.db
        .selectFrom('evidence_ledger')
        .select('subject')
        .where(
          'subject',
          'in',
          [...audits, bulk].map((entry) => subjectOf('audit', Number(entry.id))),
        )
        .execute()
      expect(sealed).toHaveLength(4)
      // the selection's list goes once the job is done; each claim's move stays in claim_moves
      const left = await ctx.db
        .selectFrom('bulk_move_claims')
        .select('claim_id')
        .where('bulk_move_id', '=', res.body.id)
        .execute()
      expect(left).toEqual([])
    })

    it('marks claims deficient with one reason, opening a cure period for each', async () => {
      const ids = await seedClaims('Deficientry', ['in_review', 'in_review'])
      const res = await start({ to: 'deficient', reason: 'screenshot_unreadable', ids }, decider)
      expect(res.status).toBe(202)
      await finishJobs()
      expect(await jobOf(res.body.id, decider)).toMatchObject({ status: 'done', moved: 2, skipped: 0 })
      expect((await statusesOf(ids)).map(([status]) => status)).toEqual(['deficient', 'deficient'])
      const cures = await ctx.db
        .selectFrom('claim_cures')
        .select('claim_id')
        .where('claim_id', 'in', ids)
        .execute()
      expect(cures).toHaveLength(2)
      const bulk = await ctx.db
        .selectFrom('audit_log')
        .select(['detail', 'actor'])
        .where('action', '=', 'bulk_move')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(bulk).toEqual({
        detail: `bulk move ${res.body.id}: 2 claims → deficient (screenshot_unreadable)`,
        actor: DECIDER.email,
      })
    })

    it('lets a single move racing a bulk move on the same claim win or lose whole: one move recorded, nothing lost', async () => {
      for (let round = 0; round < 5; round++) {
        const ids = await seedClaims(`Racer${'abcde'[round]}`, ['received', 'received', 'received'])
        const [bulk, single] = await Promise.all([
          start({ to: 'in_review', ids }),
          post(`/api/staff/claims/${ids[1]}/moves`, { to: 'in_review', version: 0 }),
        ])
        expect(bulk.status).toBe(202)
        expect([200, 409]).toContain(single.status)
        await finishJobs()
        const job = await jobOf(bulk.body.id)
        expect(job.status).toBe('done')
        // the single move won (the job skipped it) or lost (409): never both, never neither
        expect(job).toMatchObject(single.status === 200 ? { moved: 2, skipped: 1 } : { moved: 3, skipped: 0 })
        expect(await statusesOf(ids)).toEqual([
          ['in_review', 1],
          ['in_review', 1],
          ['in_review', 1],
        ])
        const moves = await ctx.db
          .selectFrom('claim_moves')
          .select('actor')
          .where('claim_id', '=', ids[1]!)
          .execute()
        expect(moves).toHaveLength(1)
      }
    })

    it('skips a claim moved after the job started, as moved meanwhile', async () => {
      const ids = await seedClaims('Meanwhile', ['received', 'received'])
      await ctx.bulkMoves.stop()
      // nothing runs the job yet, as behind a long one
      const res = await start({ to: 'in_review', ids })
      await post(`/api/staff/claims/${ids[0]}/moves`, { to: 'in_review', version: 0 }).expect(200)
      await replaceRunner()
      await ctx.bulkMoves.runDue()
      expect(await jobOf(res.body.id)).toMatchObject({ status: 'done', moved: 1, skipped: 1 })
      const moves = await ctx.db
        .selectFrom('claim_moves')
        .select('claim_id')
        .where('claim_id', 'in', ids)
        .orderBy('claim_id')
        .execute()
      expect(moves.map((move) => Number(move.claim_id))).toEqual(ids)
    })

    it('resumes a job whose process died from the last page it finished', async () => {
      const ids = await seedClaims('Resumer', ['received', 'received', 'received'])
      await ctx.bulkMoves.stop()
      // nothing runs the job yet
      const res = await start({ to: 'in_review', ids })
      // as a process that moved the first claim, then died holding the lease
      await post(`/api/staff/claims/${ids[0]}/moves`, { to: 'in_review', version: 0 }).expect(200)
      await ctx.db
        .updateTable('bulk_moves')
        .set({
          status: 'running',
          lease_owner: 'a process gone',
          lease_until: Date.now() - 1,
          after_id: ids[0]!,
          moved: 1,
        })
        .where('id', '=', res.body.id)
        .execute()
      await replaceRunner()
      await ctx.bulkMoves.runDue()
      expect(await jobOf(res.body.id)).toMatchObject({ status: 'done', total: 3, moved: 3, skipped: 0 })
      const moves = await ctx.db
        .selectFrom('claim_moves')
        .select('claim_id')
        .where('claim_id', 'in', ids)
        .execute()
      expect(moves).toHaveLength(3)
    })

    it("refuses an account without the app's decide right with 403, and one that cannot see the app too", async () => {
      const ids = await seedClaims('Nodecide', ['received'])
      const before = await countRows('bulk_moves')
      for (const res of [
        await preview({ to: 'in_review', ids }, reviewer),
        await start({ to: 'in_review', ids }, reviewer),
        await request(ctx.app).get('/api/staff/apps/brigit/bulk-moves/choices').set('Cookie', reviewer),
      ]) {
        expect(res.status).toBe(403)
        expect(res.body.error.message).toBe(
          "moving claims in bulk needs the app's decide right, which an admin grants",
        )
      }
      const other = await start({ to: 'in_review', filter: {} }, decider, 'cleo')
      expect(other.status).toBe(403)
      expect(other.body.error.message).toBe('your account has no access to this app')
      expect(await countRows('bulk_moves')).toBe(before)
    })

    it("answers a job's progress only to an account that may see its app", async () => {
      const [cleoClaim] = await seedClaims('Cleoclaim', ['received'], { app: 'cleo' })
      const res = await start({ to: 'in_review', ids: [cleoClaim] }, admin, 'cleo')
      expect(res.status).toBe(202)
      const refused = await request(ctx.app)
        .get(`/api/staff/bulk-moves/${res.body.id}`)
        .set('Cookie', decider)
      expect(refused.status).toBe(403)
      const missing = await request(ctx.app).get('/api/staff/bulk-moves/999999').set('Cookie', admin)
      expect(missing.status).toBe(404)
      expect(missing.body.error.message).toBe('no bulk move "999999"')
      await finishJobs()
    })

    it('offers the statuses a reviewer can move claims to, with their labels and reasons', async () => {
      const res = await request(ctx.app).get('/api/staff/apps/brigit/bulk-moves/choices').set('Cookie', admin)
      expect(res.status).toBe(200)
      expect(res.body.targets.map((target: { to: string }) => target.to)).toEqual([
        'in_review',
        'approved',
        'deficient',
        'rejected',
        'withdrawn',
      ])
      expect(res.body.targets[2]).toEqual({ to: 'deficient', label: 'Deficient', needsReason: true })
      expect(res.body.statusLabels.received).toBe('Received')
    })

    const STATUSES =
      'received, in_review, approved, deficient, rejected, cured, not_cured, filed, awarded, withdrawn'
    const REASONS =
      'screenshot_unreadable, screenshot_wrong_app, name_differs, duplicate, under_18, signature_unclear, details_missing, account_unverified, other'
    it.each([
      ['an unknown status', { to: 'done', filter: {} }, `unknown status "done": use one of ${STATUSES}`],
      [
        'a status no reviewer moves claims to',
        { to: 'cured', filter: {} },
        'no claim can be moved to cured by a reviewer: use one of in_review, approved, deficient, rejected, withdrawn',
      ],
      [
        'an unknown reason',
        { to: 'deficient', reason: 'looks_odd', filter: {} },
        `unknown reason "looks_odd": use one of ${REASONS}`,
      ],
      [
        'a move to deficient without a reason',
        { to: 'deficient', filter: {} },
        `a move to deficient needs a reason: one of ${REASONS}`,
      ],
      [
        'a note of 2,001 characters',
        { to: 'in_review', note: 'x'.repeat(2001), filter: {} },
        'the note is over 2,000 characters',
      ],
      [
        'no selection',
        { to: 'in_review' },
        'choose the claims to move: "ids" (the checked rows) or "filter" (the dashboard\'s filters)',
      ],
      [
        'an empty list of ids',
        { to: 'in_review', ids: [] },
        'choose the claims to move: "ids" (the checked rows) or "filter" (the dashboard\'s filters)',
      ],
      [
        'both ids and a filter',
        { to: 'in_review', ids: [1], filter: {} },
        'choose the claims one way: "ids" (the checked rows) or "filter", not both',
      ],
      [
        '10,001 ids',
        { to: 'in_review', ids: Array.from({ length: 10_001 }, (_, i) => i + 1) },
        'at most 10,000 claims can be moved by id (got 10,001): move more with a filter',
      ],
      [
        'an id that is text',
        { to: 'in_review', ids: ['12'] },
        '"ids" must hold claim ids, whole numbers (got "12")',
      ],
      [
        'an id no claim has',
        { to: 'in_review', ids: [987_654_321] },
        'no claim "987654321": send the ids of the list\'s claims',
      ],
      [
        'an unknown filter',
        { to: 'in_review', filter: { page: '2' } },
        'unknown filter "page": use q, flagged, status, reason, assignee, confirmed, language, signedFrom, signedTo, fraud, fraudReason',
      ],
      [
        'a filter value the list refuses',
        { to: 'in_review', filter: { status: 'done' } },
        `unknown status "done": use one of ${STATUSES}`,
      ],
      [
        'a filter that is not text',
        { to: 'in_review', filter: { confirmed: true } },
        'the filter "confirmed" must be text',
      ],
    ])('refuses %s with 400 naming the problem, and stores nothing', async (_label, body, message) => {
      const before = { jobs: await countRows('bulk_moves'), claims: await countRows('bulk_move_claims') }
      for (const res of [await preview(body), await start(body)]) {
        expect(res.status).toBe(400)
        expect(res.body.error.message).toBe(message)
      }
      expect({ jobs: await countRows('bulk_moves'), claims: await countRows('bulk_move_claims') }).toEqual(
        before,
      )
    })

    it("refuses an id of another app's claim with 403, and a selection without a claim with 400, storing nothing", async () => {
      const [mine] = await seedClaims('Mixedapps', ['received'])
      const [theirs] = await seedClaims('Mixedapps', ['received'], { app: 'cleo' })
      const before = await countRows('bulk_moves')
      const res = await start({ to: 'in_review', ids: [mine, theirs] })
      expect(res.status).toBe(403)
      expect(res.body.error.message).toBe(
        `claim "${theirs}" is not one of this app's claims: a bulk move takes one app's claims`,
      )
      const empty = await start({ to: 'in_review', filter: { q: 'Nobodyhasthisname' } })
      expect(empty.status).toBe(400)
      expect(empty.body.error.message).toBe(
        'no claim is selected: check rows or change the filter, then try again',
      )
      expect(await countRows('bulk_moves')).toBe(before)
      expect((await statusesOf([mine!]))[0]).toEqual(['received', 0])
    })
  })
}
