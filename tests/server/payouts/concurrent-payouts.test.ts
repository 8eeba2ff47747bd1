import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { lockLedger } from '../../../server/evidence/ledger.ts'
import { seedClaim } from '../support/claims.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { signInMakerAndChecker } from '../support/payout-fixtures.ts'
import { loginStaff, SAME_SITE } from '../support/staff-sign-in.ts'

const SITE = 'dashboard.test'
const APP = 'brigit'

for (const dialect of DIALECTS) {
  describe(`${dialect}: payout batches built at the same moment`, () => {
    let ctx: TestContext
    let maker: string
    let checker: string
    let admin: string
    let seeded = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      ;({ maker, checker } = await signInMakerAndChecker(ctx, { site: SITE, app: APP }))
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /**
     * Claims of claimants of their own, each awarded `amount` through the award route, with a payment
     * by check chosen (the row the claimant's route writes; a check carries no number to seal).
     */
    async function awardedClaims(count: number, amount: string): Promise<number[]> {
      const ids: number[] = []
      for (let i = 0; i < count; i++) {
        const n = ++seeded
        const { id } = await seedClaim(ctx, {
          app: APP,
          status: 'filed',
          fields: {
            firstName: 'Pat',
            lastName: `Payee${n}`,
            email: `pat.payee${n}@mail.test`,
            phoneNumber: `(555) 410-${String(1000 + n)}`,
          },
        })
        expect((await setAward(id, amount)).status).toBe(200)
        await ctx.db
          .insertInto('payout_choices')
          .values({
            claim_id: id,
            method: 'check',
            receiver: null,
            receiver_type: null,
            routing_number: null,
            account_sealed: null,
            account_last4: null,
            account_type: null,
            chosen_at: Date.now(),
          })
          .execute()
        ids.push(id)
      }
      return ids
    }

    // supertest sends a request once it is awaited or then'd: these send at once
    const build = (cookie: string) =>
      request(ctx.app)
        .post(`/api/staff/apps/${APP}/payouts`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send({ costs: '0' })
        .then((answer) => answer)
    const setAward = (claimId: number, amount: string) =>
      request(ctx.app)
        .put(`/api/staff/claims/${claimId}/award`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send({ amount })
        .then((answer) => answer)
    const itemsOf = (claimIds: number[]) =>
      ctx.db
        .selectFrom('payout_items')
        .select(['claim_id', 'batch_id', 'gross_cents'])
        .where('claim_id', 'in', claimIds)
        .orderBy('claim_id')
        .execute()
    const awardOf = async (claimId: number) =>
      Number(
        (
          await ctx.db
            .selectFrom('claim_awards')
            .select('gross_cents')
            .where('claim_id', '=', claimId)
            .executeTakeFirstOrThrow()
        ).gross_cents,
      )
    /** PostgreSQL: waits until `count` of this database's statements wait for a lock. */
    const waitForLockWaits = (count: number) =>
      vi.waitFor(
        async () => {
          const waiting = await sql<{ count: number }>`
            SELECT count(*)::int AS count FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(ctx.db)
          expect(waiting.rows[0]?.count).toBe(count)
        },
        { timeout: 15_000, interval: 20 },
      )

    it('puts each claim in exactly one batch when two accounts build at once', async () => {
      const claimIds = await awardedClaims(12, '400.00')

      const answers = await Promise.all([build(maker), build(checker)])

      const built = answers.filter((answer) => answer.status === 201)
      const refused = answers.filter((answer) => answer.status !== 201)
      expect(built).toHaveLength(1)
      expect(built[0]!.body.totals).toMatchObject({ count: 12, grossCents: 480_000 })
      expect(refused.map((answer) => answer.status)).toEqual([409])
      expect(refused[0]!.body.error.message).toMatch(/^no claim of "brigit" is ready to pay/)
      const items = await itemsOf(claimIds)
      expect(items.map((item) => Number(item.claim_id))).toEqual(claimIds)
      expect(new Set(items.map((item) => Number(item.batch_id)))).toEqual(new Set([built[0]!.body.batchId]))
    })

    it('refuses an award change for a claim a batch took while it was being built, naming the batch', async () => {
      const [claimId] = await awardedClaims(1, '500.00')
      let built: request.Response
      let corrected: request.Response
      if (dialect === 'postgres') {
        // another writer holds the evidence chain: the build waits for it with its items written and
        // not yet committed, and the correction arrives in that moment
        let release!: () => void
        let holding!: () => void
        const isHolding = new Promise<void>((resolve) => (holding = resolve))
        const chain = ctx.db.transaction().execute(async (trx) => {
          await lockLedger(trx)
          holding()
          await new Promise<void>((resolve) => (release = resolve))
        })
        await isHolding
        const building = build(maker)
        await waitForLockWaits(1)
        const correcting = setAward(claimId!, '600.00')
        await waitForLockWaits(2)
        release()
        await chain
        ;[built, corrected] = await Promise.all([building, correcting])
      } else {
        // SQLite writes one transaction at a time: the build and the correction sent together take turns
        ;[built, corrected] = await Promise.all([build(maker), setAward(claimId!, '600.00')])
      }

      expect(built.status).toBe(201)
      const [item] = await itemsOf([claimId!])
      if (dialect === 'postgres' || corrected.status !== 200) {
        expect(corrected.status).toBe(409)
        expect(corrected.body.error.message).toBe(
          `claim ${claimId}'s award of $500.00 is in payout batch ${built.body.batchId} already: an award is corrected only before it is paid`,
        )
        expect(Number(item!.gross_cents)).toBe(50_000)
        expect(await awardOf(claimId!)).toBe(50_000)
      } else {
        // the correction went first: the batch pays the corrected award
        expect(Number(item!.gross_cents)).toBe(60_000)
        expect(await awardOf(claimId!)).toBe(60_000)
      }
      // the batch is built: any later change is refused the same way
      const later = await setAward(claimId!, '700.00')
      expect(later.status).toBe(409)
      expect(later.body.error.message).toMatch(
        new RegExp(
          `^claim ${claimId}'s award of \\$[\\d.,]+ is in payout batch ${built.body.batchId} already`,
        ),
      )
    })
  })
}
