import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutBatchBuilt } from '../../../src/api/payouts.ts'
import { seedClaim } from '../support/claims.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'
import { awardClaim, signInMakerAndChecker } from '../support/payout-fixtures.ts'
import { SAME_SITE } from '../support/staff-sign-in.ts'

const SITE = 'dashboard.test'
const APP = 'brigit'
// enough signed agreements (some 17 KB each) that PostgreSQL sends them over many network reads
const CLAIMS = 30

for (const dialect of DIALECTS) {
  describe(`${dialect}: the fee a payout build takes from each claim`, () => {
    let ctx: TestContext
    let maker: string
    const claimIds: number[] = []

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      ;({ maker } = await signInMakerAndChecker(ctx, { site: SITE, app: APP }))
      for (let n = 1; n <= CLAIMS; n++) {
        const { id } = await seedClaim(ctx, {
          app: APP,
          status: 'filed',
          fields: {
            firstName: 'Pat',
            lastName: `Signer${n}`,
            email: `pat.signer${n}@mail.test`,
            phoneNumber: `(555) 420-${String(1000 + n)}`,
          },
        })
        await awardClaim(ctx, {
          claimId: id,
          app: APP,
          grossCents: 100_000,
          choice: { method: 'check' },
          taxForm: null,
        })
        claimIds.push(id)
      }
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it("reads each claim's own signed agreement: its percent, or the claim left out and named when it has none", async () => {
      // a claim signed stating 35 %, and one with no signed record at all, among the others
      const record = await ctx.db
        .selectFrom('agreement_records')
        .selectAll()
        .where('claim_id', '=', claimIds[0]!)
        .executeTakeFirstOrThrow()
      expect(record.html).toContain("The firm's fee is 40% of the gross recovery")
      const another = async (n: number) => {
        const { id } = await insertClaim(ctx.db, {
          app: APP,
          created_at: new Date().toISOString(),
          first_name: 'Pat',
          last_name: `Other${n}`,
          email: `pat.other${n}@mail.test`,
          phone_number: `(555) 430-100${n}`,
          cash_advance_count: 2,
          membership_months: 4,
          screenshot_key: 'brigit-screenshots/missing.png',
          screenshot_type: 'image/png',
        })
        await awardClaim(ctx, {
          claimId: id,
          app: APP,
          grossCents: 100_000,
          choice: { method: 'check' },
          taxForm: null,
        })
        return id
      }
      const doctored = await another(1)
      const unsigned = await another(2)
      const { id: _recordId, ...signed } = record
      await ctx.db
        .insertInto('agreement_records')
        .values({
          ...signed,
          claim_id: doctored,
          signed_at: String(
            signed.signed_at instanceof Date ? signed.signed_at.toISOString() : signed.signed_at,
          ),
          html: signed.html.replaceAll('40%', '35%'),
        })
        .execute()
      const paid = [...claimIds, doctored].sort((a, b) => a - b)

      const built = await request(ctx.app)
        .post(`/api/staff/apps/${APP}/payouts`)
        .set(SAME_SITE)
        .set('Cookie', maker)
        .send({ costs: '0' })
        .expect(201)

      const body = built.body as PayoutBatchBuilt
      expect(body.leftOut).toEqual([
        {
          claimId: unsigned,
          reason: `claim ${unsigned}: its signed agreement states no fee percent ("The firm's fee is N% of the gross recovery"); no fee can be taken from its award until the firm and the claimant agree one in writing`,
        },
      ])
      const items = await ctx.db
        .selectFrom('payout_items')
        .select(['claim_id', 'fee_percent', 'fee_cents'])
        .where('batch_id', '=', body.batchId)
        .orderBy('claim_id')
        .execute()
      expect(items.map((item) => Number(item.claim_id))).toEqual(paid)
      for (const item of items) {
        const percent = Number(item.claim_id) === doctored ? '35' : '40'
        expect([item.fee_percent, Number(item.fee_cents)]).toEqual([percent, Number(percent) * 1000])
      }
    })
  })
}
