import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ClaimFraud } from '../../../src/api/fraud.ts'
import type { ClaimListPage } from '../../../src/api/staff.ts'
import { clearClaims, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { fileAsForm, fileDeviceRing, humanSignals, person, scoreAll } from '../support/fraud-claims.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'fraud-review.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }

for (const dialect of DIALECTS) {
  describe(`${dialect}: fraud scores on the claims dashboard`, () => {
    let ctx: TestContext
    let admin: string
    let reviewer: string
    let decider: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      reviewer = await signInNewAccount(ctx, SITE, {
        email: 'fraud-reviewer@firm.test',
        password: 'reviewer password 1',
        name: 'Rae Reviewer',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: true }],
      })
      decider = await signInNewAccount(ctx, SITE, {
        email: 'fraud-decider@firm.test',
        password: 'decider password 1',
        name: 'Dee Decider',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false, canDecide: true }],
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    const list = async (query: Record<string, string>, cookie = admin) =>
      (
        await request(ctx.app)
          .get('/api/staff/apps/brigit/submissions')
          .query(query)
          .set('Cookie', cookie)
          .expect(200)
      ).body as ClaimListPage
    const fraudOf = async (id: number, cookie = admin) =>
      (await request(ctx.app).get(`/api/staff/claims/${id}/fraud`).set('Cookie', cookie).expect(200))
        .body as ClaimFraud
    const notFraud = (id: number, body: Record<string, unknown>, cookie: string) =>
      request(ctx.app)
        .post(`/api/staff/claims/${id}/not-fraud`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body)

    /** A ring of ten on one device, a genuine claimant, both scored, then one claim not scored yet. */
    async function fileScoredClaims() {
      const ring = await fileDeviceRing(ctx, { device: 'device-ring-0000000001' })
      const genuine = await fileAsForm(ctx, person('Grace', 'Genuine'), {
        signals: humanSignals('device-own-0000000002'),
        address: '203.0.113.20',
      })
      await scoreAll(ctx)
      const unscored = await fileAsForm(ctx, person('Nora', 'Newcomer'), {
        signals: humanSignals('device-own-0000000003'),
        address: '203.0.113.21',
      })
      return { ring, genuine, unscored }
    }

    it('lists each claim with its score and standing, lowest score first and the unscored last', async () => {
      const { ring, genuine, unscored } = await fileScoredClaims()
      const page = await list({ order: 'score' })
      expect(page.data.map((claim) => claim.id)).toEqual([...ring, genuine, unscored])
      expect(page.count).toBe(12)
      expect(page.data.map((claim) => [claim.fraudScore, claim.fraudStanding])).toEqual([
        ...ring.map(() => [600, 'hold']),
        [1000, 'clear'],
        [null, 'unscored'],
      ])
      // the next page starts where this one ended
      const second = await list({ order: 'score', pageSize: '5', page: '3' })
      expect(second.data.map((claim) => claim.id)).toEqual([genuine, unscored])
      // searched, the same order: Grace Okafor of the ring held, before Grace Genuine
      const searched = await list({ order: 'score', q: 'Grace' })
      expect(searched.data.map((claim) => claim.id)).toEqual([ring[4], genuine])
    })

    it('filters by standing and by reason, and refuses an unknown one naming the choices', async () => {
      const { ring, genuine, unscored } = await fileScoredClaims()
      const ids = async (query: Record<string, string>) => (await list(query)).data.map((claim) => claim.id)
      expect((await ids({ fraud: 'hold' })).sort()).toEqual([...ring].sort())
      expect(await ids({ fraud: 'review' })).toEqual([])
      expect(await ids({ fraud: 'clear' })).toEqual([genuine])
      expect(await ids({ fraud: 'unscored' })).toEqual([unscored])
      expect((await ids({ fraudReason: 'device_shared' })).sort()).toEqual([...ring].sort())
      expect(await ids({ fraudReason: 'too_fast' })).toEqual([])
      expect(await ids({ fraud: 'hold', q: 'Grace' })).toEqual([ring[4]])
      expect(await ids({ fraud: 'clear', q: 'Grace' })).toEqual([genuine])

      for (const [query, message] of [
        [
          { fraud: 'suspicious' },
          'unknown fraud standing "suspicious": use one of hold, review, clear, cleared, unscored',
        ],
        [
          { fraudReason: 'odd' },
          expect.stringMatching(/^unknown fraud reason "odd": use one of device_shared, /),
        ],
      ] as const) {
        const res = await request(ctx.app)
          .get('/api/staff/apps/brigit/submissions')
          .query(query)
          .set('Cookie', admin)
        expect([res.status, res.body.error.message]).toEqual([400, message])
      }
    })

    it("exports each claim's score and reasons' codes after the other columns", async () => {
      const { ring, genuine, unscored } = await fileScoredClaims()
      const res = await request(ctx.app)
        .get('/api/staff/apps/brigit/export.csv')
        .query({ fraud: 'hold' })
        .set('Cookie', reviewer)
        .expect(200)
      const [header, ...records] = res.text
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
      expect(header!.split(',').slice(-2)).toEqual(['Fraud Score', 'Fraud Reasons'])
      expect(records.map((record) => record.split(',').slice(-2))).toEqual(
        ring.map(() => ['600', 'device_shared']),
      )
      const all = await request(ctx.app).get('/api/staff/apps/brigit/export.csv').set('Cookie', reviewer)
      const tails = new Map(
        all.text
          .trim()
          .split('\r\n')
          .slice(1)
          .map((record) => [Number(record.split(',')[0]), record.split(',').slice(-2).join(',')]),
      )
      expect([tails.get(genuine), tails.get(unscored)]).toEqual(['1000,', ','])
    })

    it("shows a held claim's reasons with the other claims of the ring and the cluster's size", async () => {
      const { ring } = await fileScoredClaims()
      const fraud = await fraudOf(ring[0]!, reviewer)
      expect(fraud).toMatchObject({
        claimId: ring[0],
        score: 600,
        standing: 'hold',
        thresholds: { review: 800, hold: 600 },
        cleared: null,
        clusterSize: 10,
        isClusterCapped: false,
        mayDecide: false,
      })
      expect(fraud.reasons).toHaveLength(1)
      expect(fraud.reasons[0]).toMatchObject({
        code: 'device_shared',
        label: 'Same device as other claimants',
        points: 400,
        text: 'This browser also sent claims under 9 other names.',
      })
      expect(fraud.reasons[0]!.related.map((claim) => claim.id).sort()).toEqual(ring.slice(1).sort())
      expect(new Set(fraud.reasons[0]!.related.map((claim) => claim.app))).toEqual(new Set(['brigit']))
    })

    it('clears one held claim as "Not fraud" for a decider with a note, on record with its score and codes', async () => {
      const { ring } = await fileScoredClaims()
      const [cleared, ...others] = ring as [number, ...number[]]

      const refused = await notFraud(cleared, { note: 'I called them' }, reviewer)
      expect([refused.status, refused.body.error.message]).toEqual([
        403,
        "deciding a claim is not fraud needs the app's decide right, which an admin grants",
      ])
      const noNote = await notFraud(cleared, { note: '  ' }, decider)
      expect([noNote.status, noNote.body.error.message]).toEqual([
        400,
        'a note is required: say why the claim is not fraud (what you checked)',
      ])
      const long = await notFraud(cleared, { note: 'x'.repeat(501) }, decider)
      expect([long.status, long.body.error.message]).toEqual([
        400,
        'the note is over 500 characters (it has 501)',
      ])
      expect((await fraudOf(cleared)).standing).toBe('hold')

      const res = await notFraud(
        cleared,
        { note: 'Called the claimant: a shared library computer.' },
        decider,
      )
      expect(res.status).toBe(200)
      const answer = res.body as ClaimFraud
      expect(answer.standing).toBe('cleared')
      expect(answer.cleared).toMatchObject({
        by: 'fraud-decider@firm.test',
        note: 'Called the claimant: a shared library computer.',
        score: 600,
      })
      const row = await ctx.db
        .selectFrom('claims')
        .innerJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
        .select(['claims.fraud_cleared_at', 'fraud_scores.cleared_by', 'fraud_scores.cleared_score'])
        .where('claims.id', '=', cleared)
        .executeTakeFirstOrThrow()
      expect(row.fraud_cleared_at).not.toBeNull()
      expect([row.cleared_by, Number(row.cleared_score)]).toEqual(['fraud-decider@firm.test', 600])
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['actor', 'app', 'detail'])
        .where('action', '=', 'fraud_cleared')
        .execute()
      expect(audit).toEqual([
        {
          actor: 'fraud-decider@firm.test',
          app: 'brigit',
          detail: `claim ${cleared}: not fraud at fraud score 600 (device_shared), cleared ${new Date(Number(row.fraud_cleared_at)).toISOString()}: Called the claimant: a shared library computer.`,
        },
      ])
      // the hold is lifted for that claim only
      const held = (await list({ fraud: 'hold' })).data.map((claim) => claim.id)
      expect(held.sort()).toEqual([...others].sort())
      expect((await list({ fraud: 'cleared' })).data.map((claim) => [claim.id, claim.fraudStanding])).toEqual(
        [[cleared, 'cleared']],
      )
      const again = await notFraud(cleared, { note: 'Once more' }, decider)
      expect([again.status, again.body.error.message]).toEqual([
        409,
        'the claim was decided not fraud already, by fraud-decider@firm.test: reload it',
      ])
    })

    it('refuses "Not fraud" on a claim not scored yet', async () => {
      const id = await fileAsForm(ctx, person('Early', 'Bird'), {
        signals: humanSignals('device-own-0000000009'),
        address: '203.0.113.30',
      })
      const res = await notFraud(id, { note: 'Looks fine' }, decider)
      expect([res.status, res.body.error.message]).toEqual([
        409,
        'the claim is not scored yet: its score follows within a minute of its arrival; try then',
      ])
    })
  })
}
