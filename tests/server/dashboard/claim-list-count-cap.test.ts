import type { Insertable } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BulkMovePreview } from '../../../src/api/bulk-moves.ts'
import { MATCH_COUNT_CAP, type ClaimListPage } from '../../../src/api/staff.ts'
import type { ClaimsTable } from '../../../server/db/database.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'count-cap.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
/** More received claims of one surname than the list counts past a page's start. */
const COMMON = MATCH_COUNT_CAP + 100
const IN_REVIEW = 20
const RARE = 3

for (const dialect of DIALECTS) {
  describe(`${dialect}: a claim list's match count stops at the cap`, () => {
    let ctx: TestContext
    let admin: string
    /** The received Capwells' ids, newest first. */
    let commonIds: number[]

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      const rows: Insertable<ClaimsTable>[] = []
      const claim = (lastName: string, review_status: string): Insertable<ClaimsTable> => {
        const seq = rows.length + 1
        return {
          app: 'brigit',
          created_at: new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString(),
          first_name: 'Cora',
          last_name: lastName,
          email: `claimant${seq}@mail.test`,
          phone_number: `(718) 55${String(seq).padStart(5, '0')}`,
          cash_advance_count: 2,
          membership_months: 4,
          screenshot_key: 'brigit-screenshots/missing.png',
          screenshot_type: 'image/png',
          review_status,
        }
      }
      for (let i = 0; i < COMMON; i++) rows.push(claim('Capwell', 'received'))
      for (let i = 0; i < IN_REVIEW; i++) rows.push(claim('Capwell', 'in_review'))
      for (let i = 0; i < RARE; i++) rows.push(claim('Rarebird', 'received'))
      for (let start = 0; start < rows.length; start += 250) {
        await ctx.db
          .insertInto('claims')
          .values(rows.slice(start, start + 250))
          .execute()
      }
      commonIds = (
        await ctx.db
          .selectFrom('claims')
          .select('id')
          .where('last_name', '=', 'Capwell')
          .where('review_status', '=', 'received')
          .orderBy('created_at', 'desc')
          .execute()
      ).map(({ id }) => Number(id))
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const list = async (query: Record<string, string>) => {
      const res = await request(ctx.app)
        .get('/api/staff/apps/brigit/submissions')
        .query(query)
        .set('Cookie', admin)
        .expect(200)
      const page = res.body as ClaimListPage
      return { ...page, ids: page.data.map(({ id }) => id) }
    }

    it('counts a common surname with a status filter up to the cap, and says the count is a lower bound', async () => {
      const page = await list({ q: 'capwell', status: 'received' })
      expect(page).toMatchObject({
        count: MATCH_COUNT_CAP,
        isCountCapped: true,
        total: COMMON + IN_REVIEW + RARE,
      })
      expect(page.ids).toEqual(commonIds.slice(0, 50))
    })

    it('gives the exact count of a term that matches fewer than the cap', async () => {
      const rare = await list({ q: 'rarebird', status: 'received' })
      expect(rare).toMatchObject({ count: RARE, isCountCapped: false })
      expect(rare.ids).toHaveLength(RARE)
      const reviewed = await list({ q: 'capwell', status: 'in_review', pageSize: '5' })
      expect(reviewed).toMatchObject({ count: IN_REVIEW, isCountCapped: false })
    })

    it('pages forward past the cap to the last match, each page with its rows', async () => {
      const seen: number[] = []
      for (let page = 1; page <= 6; page++) {
        const found = await list({ q: 'capwell', status: 'received', pageSize: '200', page: String(page) })
        // past the first page the count reaches the last match, which lies within the cap of its start
        expect(found).toMatchObject(
          page === 1
            ? { count: MATCH_COUNT_CAP, isCountCapped: true }
            : { count: COMMON, isCountCapped: false },
        )
        seen.push(...found.ids)
      }
      expect(seen).toEqual(commonIds)
      const past = await list({ q: 'capwell', status: 'received', pageSize: '200', page: '7' })
      expect(past).toMatchObject({ data: [], count: COMMON, isCountCapped: false })
    })

    it("counts up to the cap past each page's own start", async () => {
      const second = await list({ q: 'capwell', status: 'received', pageSize: '20', page: '2' })
      expect(second).toMatchObject({ count: 20 + MATCH_COUNT_CAP, isCountCapped: true })
      expect(second.ids).toEqual(commonIds.slice(20, 40))
      const sixth = await list({ q: 'capwell', status: 'received', pageSize: '20', page: '6' })
      expect(sixth).toMatchObject({ count: COMMON, isCountCapped: false })
      expect(sixth.ids).toEqual(commonIds.slice(100, 120))
    })

    it('caps the count of the oldest-first list and starts it at the oldest match', async () => {
      const page = await list({ q: 'capwell', status: 'received', order: 'oldest' })
      expect(page).toMatchObject({ count: MATCH_COUNT_CAP, isCountCapped: true })
      expect(page.ids).toEqual(commonIds.toReversed().slice(0, 50))
    })

    it('caps the count of a term too short for the search index', async () => {
      const page = await list({ q: 'pw', status: 'received' })
      expect(page).toMatchObject({ count: MATCH_COUNT_CAP, isCountCapped: true })
      expect(page.ids).toEqual(commonIds.slice(0, 50))
    })

    it('caps the count of several filters together, which no counter keeps', async () => {
      const page = await list({ status: 'received', confirmed: 'no' })
      expect(page).toMatchObject({ count: MATCH_COUNT_CAP, isCountCapped: true })
      expect(page.data).toHaveLength(50)
    })

    it("keeps one status filter's count exact, from its counter", async () => {
      const page = await list({ status: 'received' })
      expect(page).toMatchObject({ count: COMMON + RARE, isCountCapped: false })
    })

    it("previews a bulk move of the capped filter's claims with their exact number", async () => {
      const res = await request(ctx.app)
        .post('/api/staff/apps/brigit/bulk-moves/preview')
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ to: 'in_review', filter: { q: 'capwell', status: 'received' } })
        .expect(200)
      expect(res.body as BulkMovePreview).toMatchObject({ count: COMMON, from: { received: COMMON } })
    })
  })
}
