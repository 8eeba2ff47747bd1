import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { BulkMovePreview } from '../../../src/api/bulk-moves.ts'
import type { FraudCluster } from '../../../src/api/fraud.ts'
import { clearClaims, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { moveClaimTo } from '../support/claims.ts'
import { fileAsForm, fileDeviceRing, humanSignals, person, scoreAll } from '../support/fraud-claims.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'fraud-cluster.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const RING_DEVICE = 'device-ring-0000000042'

for (const dialect of DIALECTS) {
  describe(`${dialect}: a ring's cluster and its bulk move`, () => {
    let ctx: TestContext
    let admin: string
    let brigitDecider: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      brigitDecider = await signInNewAccount(ctx, SITE, {
        email: 'cluster-decider@firm.test',
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

    const clusterOf = async (id: number, cookie = admin) =>
      (await request(ctx.app).get(`/api/staff/claims/${id}/cluster`).set('Cookie', cookie).expect(200))
        .body as FraudCluster

    it('lists the ten claimants of one device as one cluster, the device shared by each', async () => {
      const ring = await fileDeviceRing(ctx, { device: RING_DEVICE })
      const outsider = await fileAsForm(ctx, person('Olive', 'Outsider'), {
        signals: humanSignals('device-own-0000000043'),
        address: '203.0.113.50',
      })
      await scoreAll(ctx)
      const cluster = await clusterOf(ring[3]!)
      expect(cluster.claimId).toBe(ring[3])
      expect(cluster.isCapped).toBe(false)
      expect(cluster.claims.map((claim) => claim.id).sort()).toEqual([...ring].sort())
      expect(cluster.claims.map((claim) => claim.id)).not.toContain(outsider)
      // this claim first, the others each with the device it shares
      const [own, ...others] = cluster.claims
      expect([own!.id, own!.shared]).toEqual([ring[3], []])
      for (const other of others) {
        expect(other).toMatchObject({
          app: 'brigit',
          appName: 'Brigit',
          score: 600,
          standing: 'hold',
          status: 'received',
          statusLabel: 'Received',
          shared: ['device'],
        })
      }
      expect(cluster.keys).toContainEqual({ kind: 'device', count: 10 })
      // the outsider's own cluster is itself alone
      expect((await clusterOf(outsider)).claims.map((claim) => claim.id)).toEqual([outsider])
    })

    it("lists only the claims of the apps the account may see, and refuses another app's claim", async () => {
      const ring = await fileDeviceRing(ctx, { device: RING_DEVICE, size: 6 })
      const elsewhere = await fileAsForm(ctx, person('Elsa', 'Elsewhere'), {
        signals: humanSignals(RING_DEVICE),
        address: '198.51.99.5',
        app: 'earnin',
      })
      await scoreAll(ctx)
      expect((await clusterOf(ring[0]!)).claims.map((claim) => claim.id).sort()).toEqual(
        [...ring, elsewhere].sort(),
      )
      const seen = await clusterOf(ring[0]!, brigitDecider)
      expect(seen.claims.map((claim) => claim.id).sort()).toEqual([...ring].sort())
      expect(seen.keys).toContainEqual({ kind: 'device', count: 6 })
      const refused = await request(ctx.app)
        .get(`/api/staff/claims/${elsewhere}/cluster`)
        .set('Cookie', brigitDecider)
      expect(refused.status).toBe(403)
    })

    it('moves the cluster of this app to deficient with "We need to verify your account" in one bulk move', async () => {
      const ring = await fileDeviceRing(ctx, { device: RING_DEVICE })
      await scoreAll(ctx)
      // reviewers took the claims up: a move to deficient is from in review
      for (const id of ring) await moveClaimTo(ctx, { id, app: 'brigit', status: 'in_review' })
      const ids = (await clusterOf(ring[0]!, brigitDecider)).claims
        .filter((claim) => claim.app === 'brigit')
        .map((claim) => claim.id)
      const move = { to: 'deficient', reason: 'account_unverified', ids }
      const post = (path: string) =>
        request(ctx.app)
          .post(`/api/staff/apps/brigit/bulk-moves${path}`)
          .set(SAME_SITE)
          .set('Cookie', brigitDecider)
          .send(move)
      const preview = (await post('/preview').expect(200)).body as BulkMovePreview
      expect([preview.count, preview.from, preview.skipped]).toEqual([10, { in_review: 10 }, {}])
      const started = (await post('').expect(202)).body as { id: number; total: number }
      expect(started.total).toBe(10)
      await ctx.bulkMoves.runDue()
      await ctx.bulkMoves.settled()

      const claims = await ctx.db
        .selectFrom('claims')
        .select(['id', 'review_status', 'review_reason'])
        .where('id', 'in', ring)
        .orderBy('id')
        .execute()
      expect(claims.map((claim) => [Number(claim.id), claim.review_status, claim.review_reason])).toEqual(
        ring.map((id) => [id, 'deficient', 'account_unverified']),
      )
      const cures = await ctx.db
        .selectFrom('claim_cures')
        .select('claim_id')
        .where('claim_id', 'in', ring)
        .where('ended_at', 'is', null)
        .execute()
      expect(cures.map((cure) => Number(cure.claim_id)).sort()).toEqual([...ring].sort())
      const bulk = await ctx.db
        .selectFrom('audit_log')
        .select(['actor', 'detail'])
        .where('action', '=', 'bulk_move')
        .execute()
      expect(bulk).toEqual([
        {
          actor: 'cluster-decider@firm.test',
          detail: `bulk move ${started.id}: 10 claims → deficient (account_unverified)`,
        },
      ])
      // each move seals the score and the reasons the reviewer decided on
      const moves = await ctx.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'claim_moved')
        .where('actor', '=', 'cluster-decider@firm.test')
        .orderBy('id')
        .execute()
      expect(moves.map((entry) => entry.detail)).toEqual(
        ring.map(
          (id) => `claim ${id}: in_review → deficient (account_unverified); fraud score 600 (device_shared)`,
        ),
      )
    })
  })
}
