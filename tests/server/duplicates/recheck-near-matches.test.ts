import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { up } from '../../../migrations/2026_12_07_1400_recheck_near_screenshot_matches.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'

for (const dialect of DIALECTS) {
  describe(`${dialect}: near flags made by the coarse hash alone`, () => {
    let ctx: TestContext
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function checkedClaim(): Promise<number> {
      seq += 1
      const { id } = await insertClaim(ctx.db, {
        app: 'brigit',
        created_at: new Date().toISOString(),
        first_name: 'Recheck',
        last_name: 'Claimant',
        email: `recheck${seq}@mail.test`,
        phone_number: `(718) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 1,
        membership_months: 2,
        screenshot_key: 'brigit-screenshots/missing.png',
        screenshot_type: 'image/png',
      })
      // as a finished check leaves it
      await ctx.db.deleteFrom('screenshot_checks').where('claim_id', '=', id).execute()
      return id
    }

    it('are dropped and their claims checked again; flags of the same file stay', async () => {
      const [a, b, c, d] = [
        await checkedClaim(),
        await checkedClaim(),
        await checkedClaim(),
        await checkedClaim(),
      ]
      await ctx.db
        .insertInto('screenshot_matches')
        .values([
          { claim_id: a, other_claim_id: b, kind: 'near', distance: 8 },
          { claim_id: b, other_claim_id: a, kind: 'near', distance: 8 },
          { claim_id: c, other_claim_id: d, kind: 'exact', distance: 0 },
          { claim_id: d, other_claim_id: c, kind: 'exact', distance: 0 },
        ])
        .execute()

      await up(ctx.db as unknown as Kysely<unknown>)

      const flagged = await ctx.db
        .selectFrom('screenshot_matches')
        .select('claim_id')
        .where('claim_id', 'in', [a, b, c, d])
        .orderBy('claim_id')
        .execute()
      expect(flagged.map((row) => Number(row.claim_id))).toEqual([c, d])
      const queued = await ctx.db
        .selectFrom('screenshot_checks')
        .select(['claim_id', 'due_at'])
        .where('claim_id', 'in', [a, b, c, d])
        .orderBy('claim_id')
        .execute()
      expect(queued.map((row) => [Number(row.claim_id), Number(row.due_at)])).toEqual([
        [a, 0],
        [b, 0],
      ])
    })
  })
}
