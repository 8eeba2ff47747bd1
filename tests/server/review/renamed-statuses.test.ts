import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { Batch, BatchCandidates } from '../../../src/api/filing-batches.ts'
import type { Funnel } from '../../../src/api/funnel.ts'
import type { AppCounts } from '../../../src/api/staff-home.ts'
import type { StaffStats } from '../../../src/api/staff.ts'
import { moveClaim } from '../../../server/lifecycle/move-claim.ts'
import { syncReviewRoles } from '../../../server/lifecycle/review-roles.ts'
import { openAgreementsByLink } from '../support/agreement-link.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import {
  createTestContext,
  DIALECTS,
  FORMS_DIR,
  makeClaimData,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'renamed-statuses.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const DAY_MS = 24 * 60 * 60 * 1000
const SERVER = { by: 'system', actor: 'test', clientAddress: '127.0.0.1' } as const

/**
 * The project's forms, with Earnin's review calling its approved claims "ready" and its filed ones
 * "submitted": its own statuses, its moves between them, and the roles that name them.
 */
function formsWithRenamedEarnin(): string {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'claims-renamed-')), 'forms')
  fs.cpSync(FORMS_DIR, dir, { recursive: true })
  const base = JSON.parse(fs.readFileSync(path.join(dir, 'base', 'review.json'), 'utf8'))
  const renamed = (status: string) => ({ approved: 'ready', filed: 'submitted' })[status] ?? status
  const file = path.join(dir, 'earnin.json')
  const earnin = JSON.parse(fs.readFileSync(file, 'utf8'))
  earnin.review = {
    roles: { readyToFile: 'ready', filed: 'submitted' },
    statuses: {
      ready: { label: 'Ready to file', decision: true, claimant: 'approved' },
      submitted: { label: 'Submitted', claimant: 'filed' },
    },
    moves: (base.moves as { from: string; to: string }[]).map((move) => ({
      ...move,
      from: renamed(move.from),
      to: renamed(move.to),
    })),
  }
  fs.writeFileSync(file, JSON.stringify(earnin))
  return dir
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: an app whose review renames its approved and filed statuses`, () => {
    let ctx: TestContext
    let admin: string
    let claimId: number
    let contact: { email: string; phone: string }

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { formsDir: formsWithRenamedEarnin() })
      admin = await loginStaff(ctx.app, { site: SITE })
      // the main form (an address for the notice) and Earnin's Step 2 through its link
      contact = { email: 'riley@mail.test', phone: '(808) 555-0142' }
      const intake = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ ...contact, lastName: 'Renamer', cashAdvanceApps: ['earnin'] }))
        .expect(201)
      const step2Token = (intake.body as CreatedIntake).steps[0]!.path.split('#prefill=')[1]!
      const claim = await request(ctx.app)
        .post('/api/forms/earnin/submissions')
        .field('data', JSON.stringify(makeClaimData({ email: contact.email, phoneNumber: contact.phone })))
        .field('journeyToken', step2Token)
        .attach('screenshot', makePng({ width: 40, height: 30 }), 'statement.png')
        .expect(201)
      claimId = (claim.body as { id: number }).id
      // a batch takes a claim once its fraud score is in
      await ctx.fraudScores.runDue()
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const api = '/api/staff/apps/earnin/batches'
    const get = (url: string) => request(ctx.app).get(url).set({ Host: SITE }).set('Cookie', admin)
    const post = (url: string, body: object) =>
      request(ctx.app).post(url).set(SAME_SITE).set('Cookie', admin).send(body)
    const statusOf = async () =>
      (
        await ctx.db
          .selectFrom('claims')
          .select(['review_status', 'review_version'])
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
      ).review_status
    const funnelApproved = async () =>
      ((await get('/api/staff/funnel').expect(200)).body as Funnel).total.approved

    it('refuses a server move the config does not give the server, and one it has no move for', async () => {
      const reviewerOnly = moveClaim({
        db: ctx.db,
        evidenceKey: ctx.evidenceKey,
        review: ctx.reviews('earnin'),
        claimId,
        move: { to: 'in_review', version: 0 },
        mover: SERVER,
      })
      await expect(reviewerOnly).rejects.toMatchObject({
        status: 409,
        message: "the review config's move from received to in_review is for a reviewer, not the server",
      })
      const none = moveClaim({
        db: ctx.db,
        evidenceKey: ctx.evidenceKey,
        review: ctx.reviews('earnin'),
        claimId,
        move: { to: 'submitted', version: 0 },
        mover: SERVER,
      })
      await expect(none).rejects.toMatchObject({
        status: 409,
        message: 'the review config has no move from received to submitted',
      })
      expect(await statusOf()).toBe('received')
      expect(await ctx.db.selectFrom('claim_moves').select('id').execute()).toEqual([])
    })

    it('moves a claim to "ready", and counts it ready to file on the staff home, on its card and in the funnel', async () => {
      await post(`/api/staff/claims/${claimId}/moves`, { to: 'in_review', version: 0 }).expect(200)
      expect(await funnelApproved()).toBe(0)
      await post(`/api/staff/claims/${claimId}/moves`, { to: 'ready', version: 1 }).expect(200)
      const counts = (await get('/api/staff/app-counts').expect(200)).body as AppCounts
      expect(counts.apps.find((app) => app.slug === 'earnin')).toMatchObject({ toReview: 0, readyToFile: 1 })
      const stats = (await get('/api/staff/apps/earnin/stats').expect(200)).body as StaffStats
      expect(stats.statuses.find((status) => status.status === 'ready')?.count).toBe(1)
      expect(stats.statuses.find((status) => status.status === 'received')?.count).toBe(0)
      expect(await funnelApproved()).toBe(1)
      const { status } = await openAgreementsByLink(ctx, contact)
      expect(status.claims.map(({ app, state }) => [app, state])).toEqual([['earnin', 'approved']])
    })

    it('sends a notice for the "ready" claim, and takes it into a filing batch once the wait is over', async () => {
      const notices = (await get(`${api}/candidates?kind=notice`).expect(200)).body as BatchCandidates
      expect([notices.ready, notices.lacking, notices.approved]).toEqual([1, 0, 1])
      const notice = (await post(api, { kind: 'notice' }).expect(202)).body as Batch
      await ctx.batchBuilder.runDue()
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date())
      await post(`${api}/${notice.id}/sent`, { sentOn: today, method: 'mail' }).expect(204)
      // as if it went out 61 days ago: past any provider's waiting period
      await ctx.db
        .updateTable('filing_batches')
        .set({
          created_at: Date.now() - 62 * DAY_MS,
          sent_on: new Date(Date.now() - 61 * DAY_MS).toISOString().slice(0, 10),
        })
        .where('id', '=', notice.id)
        .execute()
      const filings = (await get(`${api}/candidates?kind=filing`).expect(200)).body as BatchCandidates
      expect(filings.ready).toBe(1)
      // the server's move from "ready" to "submitted" is the config's: the batch is taken
      const filing = (await post(api, { kind: 'filing', claimIds: [claimId] }).expect(202)).body as Batch
      expect(filing.claimCount).toBe(1)
      // in the batch, the claim moves only with it, to "submitted"
      const moved = await post(`/api/staff/claims/${claimId}/moves`, { to: 'withdrawn', version: 2 })
      expect(moved.status).toBe(409)
      expect(moved.body.error.message).toMatch(/is in filing batch \d+: it moves with the batch/)
    })

    it('builds the filing batch and moves its claim to "submitted" as the server, still approved in the funnel and filed for its claimant', async () => {
      await ctx.batchBuilder.runDue()
      expect(await statusOf()).toBe('submitted')
      await ctx.db
        .updateTable('claims')
        .set({ case_number: '01-26-0001-0001' })
        .where('id', '=', claimId)
        .execute()
      expect(await funnelApproved()).toBe(1)
      const counts = (await get('/api/staff/app-counts').expect(200)).body as AppCounts
      expect(counts.apps.find((app) => app.slug === 'earnin')).toMatchObject({ readyToFile: 0 })
      const { status } = await openAgreementsByLink(ctx, contact)
      expect(status.claims).toMatchObject([{ app: 'earnin', state: 'filed', caseNumber: '01-26-0001-0001' }])
    })

    it('refuses at start-up a review whose first status is not the one the database starts claims in', async () => {
      const base = ctx.reviews('cleo')
      const renamed = { ...base, initial: 'new', statuses: { ...base.statuses, new: { label: 'New' } } }
      await expect(syncReviewRoles({ db: ctx.db, reviews: () => renamed, apps: ['cleo'] })).rejects.toThrow(
        'base/review.json: /initial: "new" is not the status the database starts every claim in: set "received"',
      )
    })

    it("recounts the funnel's approved claims when the app's roles change, and back", async () => {
      // the base's roles for Earnin: its "submitted" claim is not approved by them
      const base = ctx.reviews('cleo')
      expect(await syncReviewRoles({ db: ctx.db, reviews: () => base, apps: ['earnin'] })).toEqual(['earnin'])
      expect(await funnelApproved()).toBe(0)
      expect(await syncReviewRoles({ db: ctx.db, reviews: ctx.reviews, apps: ['earnin'] })).toEqual([
        'earnin',
      ])
      expect(await funnelApproved()).toBe(1)
      expect(await syncReviewRoles({ db: ctx.db, reviews: ctx.reviews, apps: ctx.forms.keys() })).toEqual([])
    })
  })
}
