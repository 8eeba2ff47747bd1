import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutItemPage } from '../../../src/api/payouts.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { signInMakerAndChecker } from '../support/payout-fixtures.ts'
import { SAME_SITE, signInNewAccount } from '../support/staff-sign-in.ts'

const APP = 'brigit'
const SITE = 'dashboard.test'
// more than a page holds at its largest (200)
const ITEMS = 205

for (const dialect of DIALECTS) {
  describe(`${dialect}: a payout batch's items, a page at a time`, () => {
    let ctx: TestContext
    let checker: string
    let outsider: string
    let batchId = 0
    const itemIds: number[] = []

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      ;({ checker } = await signInMakerAndChecker(ctx, { site: SITE, app: APP }))
      outsider = await signInNewAccount(ctx, SITE, {
        email: 'earnin.only@firm.test',
        password: 'earnin only password',
        name: 'Ed Earnin',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: false, canPay: true }],
      })
      // the rows a built batch of many claims leaves, written straight in: the paging is what is tested
      const claims = await ctx.db
        .insertInto('claims')
        .values(
          Array.from({ length: ITEMS }, (_, n) => ({
            app: APP,
            created_at: new Date().toISOString(),
            first_name: 'Pat',
            last_name: `Payee${n}`,
            email: `pat.payee${n}@mail.test`,
            phone_number: `(555) 4${String(Math.floor(n / 100)).padStart(2, '0')}-${String(1000 + n)}`,
            cash_advance_count: 1,
            membership_months: 1,
            screenshot_key: `${APP}-screenshots/none.png`,
            screenshot_type: 'image/png',
          })),
        )
        .returning('id')
        .execute()
      const claimIds = claims.map((claim) => Number(claim.id))
      // no screenshot to check or claim to score here
      for (const queue of ['screenshot_checks', 'fraud_scores'] as const) {
        await ctx.db.deleteFrom(queue).where('claim_id', 'in', claimIds).execute()
      }
      const builder = await ctx.db
        .selectFrom('staff_accounts')
        .select('id')
        .where('email', '=', 'maker@firm.test')
        .executeTakeFirstOrThrow()
      const batch = await ctx.db
        .insertInto('payout_batches')
        .values({
          app: APP,
          status: 'built',
          costs_cents: 0,
          built_by: Number(builder.id),
          built_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      batchId = Number(batch.id)
      const items = await ctx.db
        .insertInto('payout_items')
        .values(
          claimIds.map((claimId, n) => ({
            batch_id: batchId,
            claim_id: claimId,
            method: n % 2 === 0 ? ('check' as const) : ('venmo' as const),
            gross_cents: 10_000 + n,
            fee_percent: '40',
            fee_cents: 4_000,
            costs_cents: 0,
            withholding_cents: 0,
            net_cents: 6_000 + n,
            status: 'pending' as const,
            updated_at: Date.now(),
          })),
        )
        .returning('id')
        .execute()
      itemIds.push(...items.map((item) => Number(item.id)).sort((a, b) => a - b))
    }, 120_000)
    afterAll(async () => {
      await ctx?.close()
    })

    const itemsPage = (query: string, cookie = checker) =>
      request(ctx.app)
        .get(`/api/staff/payout-batches/${batchId}/items${query}`)
        .set(SAME_SITE)
        .set('Cookie', cookie)

    it('gives every item once over the pages, in the order they were made, with the count of all', async () => {
      const first = (await itemsPage('?page=1&pageSize=200').expect(200)).body as PayoutItemPage
      const second = (await itemsPage('?page=2&pageSize=200').expect(200)).body as PayoutItemPage
      expect([first.page, first.pageSize, first.count]).toEqual([1, 200, ITEMS])
      expect(first.items).toHaveLength(200)
      expect(second.items).toHaveLength(ITEMS - 200)
      expect([...first.items, ...second.items].map((item) => item.id)).toEqual(itemIds)
      expect(second.items.at(-1)).toMatchObject({
        claimantName: `Pat Payee${ITEMS - 1}`,
        netCents: 6_000 + ITEMS - 1,
      })
      const beyond = (await itemsPage('?page=3&pageSize=200').expect(200)).body as PayoutItemPage
      expect([beyond.items, beyond.count]).toEqual([[], ITEMS])
    })

    it('gives 50 items unless asked, and never more than 200 in a page', async () => {
      const plain = (await itemsPage('').expect(200)).body as PayoutItemPage
      expect([plain.items.length, plain.page, plain.pageSize]).toEqual([50, 1, 50])
      const third = (await itemsPage('?page=3').expect(200)).body as PayoutItemPage
      expect(third.items.map((item) => item.id)).toEqual(itemIds.slice(100, 150))
      const capped = (await itemsPage('?pageSize=5000').expect(200)).body as PayoutItemPage
      expect([capped.items.length, capped.pageSize]).toEqual([200, 200])
    })

    it('refuses a page that is not a whole number of 1 or more, naming it', async () => {
      for (const [query, name] of [
        ['?page=0', 'page'],
        ['?page=two', 'page'],
        ['?pageSize=-1', 'pageSize'],
        ['?pageSize=1.5', 'pageSize'],
      ]) {
        const refused = await itemsPage(query!).expect(400)
        expect(refused.body.error.message).toBe(`"${name}" must be a whole number of 1 or more`)
      }
    })

    it("keeps another app's staff out", async () => {
      const refused = await itemsPage('?page=1', outsider)
      expect(refused.status).toBe(403)
      expect(refused.body.error.message).toBe('your account has no access to this app')
    })
  })
}
