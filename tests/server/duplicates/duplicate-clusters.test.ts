import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DuplicateCluster, DuplicateScreenshot } from '../../../src/api/staff.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'duplicate-clusters.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const BRIGIT_DECIDER = { email: 'cluster-brigit@firm.test', password: 'reviewer password 2' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: flagged pairs ranked, and a cluster decided at once`, () => {
    let ctx: TestContext
    let admin: string
    let brigitDecider: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      brigitDecider = await signInNewAccount(ctx, SITE, {
        ...BRIGIT_DECIDER,
        name: 'Bea Brigit',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false, canDecide: true }],
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
        last_name: 'Cluster',
        email: `cluster${seq}@mail.test`,
        phone_number: `(312) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 1,
        membership_months: 2,
        screenshot_key: 'brigit-screenshots/missing.png',
        screenshot_type: 'image/png',
      })
      return id
    }

    /** Flags two claims with each other, as the screenshot check records them. */
    async function flag(first: number, second: number, distance: number): Promise<void> {
      const kind = distance === 0 ? 'exact' : 'near'
      await ctx.db
        .insertInto('screenshot_matches')
        .values([
          { claim_id: first, other_claim_id: second, kind, distance },
          { claim_id: second, other_claim_id: first, kind, distance },
        ])
        .execute()
    }

    const matchesOf = async (claimId: number) =>
      (await request(ctx.app).get(`/api/staff/claims/${claimId}/duplicates`).set('Cookie', admin).expect(200))
        .body as DuplicateScreenshot[]
    const clusterOf = async (claimId: number, cookie = admin) =>
      (
        await request(ctx.app)
          .get(`/api/staff/claims/${claimId}/duplicate-cluster`)
          .set('Cookie', cookie)
          .expect(200)
      ).body as DuplicateCluster
    const decide = (claimId: number, body: Record<string, unknown>, cookie = admin) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/duplicate-decision`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body)
    const flaggedIds = async (claimIds: number[]) =>
      (
        await ctx.db
          .selectFrom('screenshot_matches')
          .select('claim_id')
          .where('claim_id', 'in', claimIds)
          .execute()
      ).map((row) => Number(row.claim_id))

    it('lists a claim’s matches surest first: the identical file, then the fewest bits apart', async () => {
      const [claim, farNear, identical, closeNear] = [
        await insertClaimRow(),
        await insertClaimRow(),
        await insertClaimRow(),
        await insertClaimRow(),
      ]
      await flag(claim, farNear, 9)
      await flag(claim, identical, 0)
      await flag(claim, closeNear, 3)

      expect((await matchesOf(claim)).map(({ id, kind, distance }) => ({ id, kind, distance }))).toEqual([
        { id: identical, kind: 'exact', distance: 0 },
        { id: closeNear, kind: 'near', distance: 3 },
        { id: farNear, kind: 'near', distance: 9 },
      ])
    })

    it('names every claim connected to one by flags, directly or through another', async () => {
      const [a, b, c, apart] = [
        await insertClaimRow(),
        await insertClaimRow(),
        await insertClaimRow(),
        await insertClaimRow(),
      ]
      await flag(a, b, 4)
      await flag(b, c, 6)

      expect(await clusterOf(c)).toEqual({ claimIds: [a, b, c], isWhole: true })
      expect(await clusterOf(apart)).toEqual({ claimIds: [apart], isWhole: true })
    })

    it('clears every pair of a cluster decided "not duplicates" at once, on the record', async () => {
      const [a, b, c, d] = [
        await insertClaimRow(),
        await insertClaimRow(),
        await insertClaimRow(),
        await insertClaimRow(),
      ]
      await flag(a, b, 4)
      await flag(b, c, 6)
      await flag(a, c, 8)
      await flag(c, d, 2)

      const decided = await decide(b, { decision: 'not_duplicate', cluster: true, version: 0 })
      expect(decided.status).toBe(200)
      expect(decided.body).toEqual({ status: 'received', version: 0, flagged: false })
      expect(await flaggedIds([a, b, c, d])).toEqual([])
      const decisions = await ctx.db
        .selectFrom('duplicate_decisions')
        .select(['claim_id', 'other_claim_id', 'distance'])
        .where('claim_id', 'in', [a, b, c, d])
        .execute()
      expect(decisions).toHaveLength(8)
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'duplicate_cleared')
        .where('detail', 'like', `claim ${b}:%`)
        .execute()
      expect(audit.map((row) => row.detail)).toEqual([
        `claim ${b}: its cluster, claims ${a}, ${b}, ${c}, ${d}, not duplicates of each other (4 pairs)`,
      ])
    })

    it('refuses a cluster holding a claim whose app the reviewer may not decide, changing nothing', async () => {
      const [a, b, other] = [await insertClaimRow(), await insertClaimRow(), await insertClaimRow('earnin')]
      await flag(a, b, 4)
      await flag(b, other, 5)

      expect(await clusterOf(a, brigitDecider)).toEqual({ claimIds: [a, b], isWhole: false })
      const refused = await decide(a, { decision: 'not_duplicate', cluster: true, version: 0 }, brigitDecider)
      expect(refused.status).toBe(404)
      expect((await flaggedIds([a, b, other])).sort((x, y) => x - y)).toEqual([a, b, b, other])
    })

    it('refuses to move a whole cluster as duplicates, or a cluster named with one other claim', async () => {
      const [a, b] = [await insertClaimRow(), await insertClaimRow()]
      await flag(a, b, 0)

      const moved = await decide(a, { decision: 'duplicate', cluster: true, version: 0 })
      expect(moved.status).toBe(400)
      expect(moved.body.error.message).toMatch(/only be decided "not_duplicate"/)
      expect(
        (await decide(a, { decision: 'not_duplicate', cluster: true, other: b, version: 0 })).status,
      ).toBe(400)
      expect(await flaggedIds([a, b])).toHaveLength(2)
    })
  })
}
