import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Funnel } from '../../../src/api/funnel.ts'
import type { AwardList, AwardSet, AwardsImported, SettlementCreated } from '../../../src/api/payouts.ts'
import type { ClaimReview } from '../../../src/api/review.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { seedClaim } from '../support/claims.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'awards.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const PASSWORD = 'a long enough password'

for (const dialect of DIALECTS) {
  describe(`${dialect}: awards on claims`, () => {
    let ctx: TestContext
    let admin: string
    let paralegal: string
    let viewer: string
    let seeded = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      paralegal = await signInNewAccount(ctx, SITE, {
        email: 'paralegal@firm.test',
        name: 'Pat Paralegal',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: false, canDecide: true }],
        password: PASSWORD,
      })
      viewer = await signInNewAccount(ctx, SITE, {
        email: 'viewer@firm.test',
        name: 'Vic Viewer',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: true }],
        password: PASSWORD,
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** An Earnin claim of a claimant of its own, moved to `status`, with a case number when given one. */
    async function earninClaim({
      status = 'filed',
      caseNumber,
      cashAdvanceCount = 3,
    }: { status?: string; caseNumber?: string; cashAdvanceCount?: number } = {}): Promise<number> {
      const n = ++seeded
      const { id } = await seedClaim(ctx, {
        app: 'earnin',
        status,
        fields: {
          firstName: `Claimant${n}`,
          lastName: `Awardee${n}`,
          email: `awardee${n}@mail.test`,
          phoneNumber: `(808) 555-${String(2000 + n)}`,
          cashAdvanceCount,
        },
      })
      if (caseNumber !== undefined) {
        await ctx.db.updateTable('claims').set({ case_number: caseNumber }).where('id', '=', id).execute()
      }
      return id
    }

    const importFile = (cookie: string, text: string) =>
      request(ctx.app)
        .post('/api/staff/apps/earnin/awards/import')
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .set('Content-Type', 'text/csv')
        .send(text)
    const putAward = (cookie: string, claimId: number, amount: unknown) =>
      request(ctx.app)
        .put(`/api/staff/claims/${claimId}/award`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send({ amount })
    const putCosts = (cookie: string, claimId: number, costs: unknown) =>
      request(ctx.app)
        .put(`/api/staff/claims/${claimId}/award/costs`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send({ costs })
    const settle = (cookie: string, body: Record<string, unknown>) =>
      request(ctx.app)
        .post('/api/staff/apps/earnin/settlements')
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body)
    const statusOf = async (claimId: number) =>
      (
        (await request(ctx.app).get(`/api/staff/claims/${claimId}/review`).set('Cookie', admin).expect(200))
          .body as ClaimReview
      ).status
    const trustOf = async (claimIds: number[]) =>
      ctx.db
        .selectFrom('trust_entries')
        .select(['claim_id', 'kind', 'amount_cents'])
        .where('claim_id', 'in', claimIds)
        .orderBy('id')
        .execute()
    const awardsOf = async (claimIds: number[]) =>
      ctx.db.selectFrom('claim_awards').select('claim_id').where('claim_id', 'in', claimIds).execute()
    const auditDetails = async (action: string) =>
      (
        await ctx.db
          .selectFrom('audit_log')
          .select(['detail', 'actor'])
          .where('action', '=', action)
          .orderBy('id')
          .execute()
      ).map((row) => ({ detail: row.detail, actor: row.actor }))

    it("imports a provider's file by case number as a paralegal with the decide right: each claim awarded, the trust account receiving the file's total", async () => {
      const claims = [
        await earninClaim({ caseNumber: '01-26-0007-0001' }),
        await earninClaim({ caseNumber: '01-26-0007-0002' }),
        await earninClaim({ caseNumber: '01-26-0007-0003' }),
      ]
      const file =
        'Case Number,Claimant,Award Amount\r\n' +
        '01-26-0007-0001,Claimant A,"1,234.56"\r\n' +
        '01-26-0007-0002,Claimant B,$500\r\n' +
        '01-26-0007-0003,"Claimant, C",0.44\r\n'

      const res = await importFile(paralegal, file)

      expect(res.status).toBe(200)
      const sha256 = crypto.createHash('sha256').update(file).digest('hex')
      expect(res.body).toEqual({
        imported: 3,
        totalCents: 173500,
        costsCents: 0,
        sha256,
      } satisfies AwardsImported)
      for (const claimId of claims) expect(await statusOf(claimId)).toBe('awarded')
      const trust = await trustOf(claims)
      expect(trust.map((entry) => [Number(entry.claim_id), entry.kind, Number(entry.amount_cents)])).toEqual([
        [claims[0], 'received', 123456],
        [claims[1], 'received', 50000],
        [claims[2], 'received', 44],
      ])
      expect(trust.reduce((sum, entry) => sum + Number(entry.amount_cents), 0)).toBe(173500)
      expect(await auditDetails('awards_imported')).toEqual([
        { detail: `3 awards, $1,735.00 in all (file SHA-256 ${sha256})`, actor: 'paralegal@firm.test' },
      ])
      const list = (
        await request(ctx.app).get('/api/staff/apps/earnin/awards').set('Cookie', paralegal).expect(200)
      ).body as AwardList
      expect(list.awards.filter((row) => claims.includes(row.claimId))).toEqual(
        [...claims].reverse().map((claimId, index) =>
          expect.objectContaining({
            claimId,
            claimantName: expect.stringMatching(/^Claimant\d+ Awardee\d+$/),
            grossCents: [44, 50000, 123456][index],
            source: 'imported',
            settlement: null,
            setBy: 'paralegal@firm.test',
          }),
        ),
      )
      expect(list.totals.grossCents).toBeGreaterThanOrEqual(173500)

      // the same file again: every claim is awarded already, and nothing more is received
      const again = await importFile(paralegal, file)
      expect(again.status).toBe(400)
      expect(again.body.error.message).toContain(`line 2: claim ${claims[0]} is awarded already ($1,234.56)`)
      expect(await trustOf(claims)).toHaveLength(3)
    })

    it('imports nothing from a file with one bad line, and names each bad line', async () => {
      const good = await earninClaim({ caseNumber: '01-26-0008-0001' })
      const approved = await earninClaim({ status: 'approved', caseNumber: '01-26-0008-0002' })
      const file = [
        'Case Number,Award',
        '01-26-0008-0001,100.00',
        '01-26-0008-9999,100.00',
        '01-26-0008-0002,100.00',
        '01-26-0008-0001,12.345',
      ].join('\n')

      const res = await importFile(paralegal, file)

      expect(res.status).toBe(400)
      expect(res.body.error.message).toBe(
        [
          'the award file was not imported:',
          'line 3: no earnin claim has case number 01-26-0008-9999',
          `line 4: claim ${approved} is approved, not filed: only a filed claim is awarded`,
          'line 5: case number 01-26-0008-0001 is on line 2 too',
          'line 5: the award "12.345" has more than two decimals; round it to whole cents',
        ].join('\n'),
      )
      expect(await statusOf(good)).toBe('filed')
      expect(await awardsOf([good, approved])).toEqual([])
      expect(await trustOf([good, approved])).toEqual([])
    })

    it('imports by the row ID of a filing batch too', async () => {
      const claimId = await earninClaim()
      const { id: batchId } = await ctx.db
        .insertInto('filing_batches')
        .values(await filingBatchRow(ctx))
        .returning('id')
        .executeTakeFirstOrThrow()
      await ctx.db
        .insertInto('filing_batch_claims')
        .values({ batch_id: batchId, claim_id: claimId, row_id: `B${batchId}-00001`, case_number: null })
        .execute()

      const res = await importFile(paralegal, `Row ID,Amount\nB${batchId}-00001,75.00\n`)

      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ imported: 1, totalCents: 7500 })
      expect(await statusOf(claimId)).toBe('awarded')
    })

    it('answers 403 to an account without the decide right, and awards nothing', async () => {
      const claimId = await earninClaim({ caseNumber: '01-26-0009-0001' })

      expect((await importFile(viewer, 'Case Number,Award\n01-26-0009-0001,10.00\n')).status).toBe(403)
      expect((await putAward(viewer, claimId, '10.00')).status).toBe(403)
      const settled = await settle(viewer, {
        name: 'Try',
        total: '10.00',
        rule: 'equal',
        claimIds: [claimId],
      })
      expect(settled.status).toBe(403)
      expect(settled.body.error.message).toBe(
        "setting awards needs the app's decide right, which an admin grants",
      )
      expect((await request(ctx.app).get('/api/staff/apps/earnin/awards').set('Cookie', viewer)).status).toBe(
        403,
      )
      expect(await statusOf(claimId)).toBe('filed')
      expect(await awardsOf([claimId])).toEqual([])
    })

    it('shares a $1,000.00 settlement among three claims by their cash advances, to the cent', async () => {
      const one = await earninClaim({ cashAdvanceCount: 1 })
      const two = await earninClaim({ cashAdvanceCount: 2 })
      const four = await earninClaim({ cashAdvanceCount: 4 })
      const claims = [one, two, four]

      const res = await settle(admin, {
        name: 'Earnin class settlement',
        total: '$1,000.00',
        rule: 'cashAdvanceCount',
        claimIds: [four, one, two],
      })

      expect(res.status).toBe(201)
      // 1/7, 2/7 and 4/7 of 100,000 cents: 14,285.71, 28,571.43 and 57,142.86, the two leftover cents to
      // the largest remainders
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Earnin class settlement',
        totalCents: 100000,
        rule: 'cashAdvanceCount',
        shares: [
          { claimId: one, cents: 14286 },
          { claimId: two, cents: 28571 },
          { claimId: four, cents: 57143 },
        ],
      } satisfies SettlementCreated)
      const trust = await trustOf(claims)
      expect(trust.reduce((sum, entry) => sum + Number(entry.amount_cents), 0)).toBe(100000)
      for (const claimId of claims) expect(await statusOf(claimId)).toBe('awarded')
      const list = (
        await request(ctx.app).get('/api/staff/apps/earnin/awards').set('Cookie', admin).expect(200)
      ).body as AwardList
      expect(list.awards.find((row) => row.claimId === one)).toMatchObject({
        source: 'settlement',
        settlement: { id: res.body.id, name: 'Earnin class settlement' },
      })
      expect((await auditDetails('settlement_allocated')).at(-1)?.detail).toBe(
        `settlement ${res.body.id} "Earnin class settlement": 3 awards, $1,000.00 in all, shared by cash advances`,
      )
    })

    it('refuses to award a claim that is not filed, and leaves it as it was', async () => {
      const approved = await earninClaim({ status: 'approved' })

      const typed = await putAward(paralegal, approved, '250.00')
      expect(typed.status).toBe(409)
      expect(typed.body.error.message).toBe(
        `claim ${approved} is approved, not filed: only a filed claim is awarded`,
      )
      const settled = await settle(paralegal, {
        name: 'Some',
        total: '300.00',
        rule: 'equal',
        claimIds: [approved],
      })
      expect(settled.status).toBe(409)
      expect(settled.body.error.message).toContain(`claim ${approved} is approved, not filed`)
      expect(await statusOf(approved)).toBe('approved')
      expect(await awardsOf([approved])).toEqual([])
      expect(await trustOf([approved])).toEqual([])
    })

    it("sets one claim's award as typed, corrects it upward with the difference received, and refuses to lower it", async () => {
      const claimId = await earninClaim()

      const set = await putAward(paralegal, claimId, '1,000.00')
      expect(set.status).toBe(200)
      expect(set.body).toEqual({
        claimId,
        grossCents: 100000,
        costsCents: 0,
        status: 'awarded',
        changed: true,
      } satisfies AwardSet)
      expect((await putAward(paralegal, claimId, '$1,000')).body).toMatchObject({ changed: false })

      const raised = await putAward(paralegal, claimId, '1,200.50')
      expect(raised.body).toMatchObject({ grossCents: 120050, changed: true })
      const lowered = await putAward(paralegal, claimId, '900.00')
      expect(lowered.status).toBe(409)
      expect(lowered.body.error.message).toMatch(/^an award is corrected upward only before payout/)

      expect((await trustOf([claimId])).map((entry) => Number(entry.amount_cents))).toEqual([100000, 20050])
      expect((await auditDetails('award_corrected')).at(-1)?.detail).toBe(
        `claim ${claimId}: $1,000.00 → $1,200.50 ($200.50 more received)`,
      )
      const unreadable = await putAward(paralegal, claimId, '12,34')
      expect(unreadable.status).toBe(400)
      expect(unreadable.body.error.message).toMatch(/^"amount" "12,34" is not a dollar amount/)
      expect((await putAward(paralegal, claimId, 1200.5)).status).toBe(400)
    })

    /** A built payout batch of Earnin's holding a pending item for the claim; gives the batch's id. */
    async function pendingItem(claimId: number): Promise<number> {
      const account = await ctx.db
        .selectFrom('staff_accounts')
        .select('id')
        .orderBy('id')
        .executeTakeFirstOrThrow()
      const { id: batchId } = await ctx.db
        .insertInto('payout_batches')
        .values({
          app: 'earnin',
          status: 'built',
          costs_cents: 0,
          built_by: Number(account.id),
          built_at: Date.now(),
          approved_by: null,
          approved_at: null,
          sent_at: null,
          due_at: null,
          lease_owner: null,
          lease_until: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await ctx.db
        .insertInto('payout_items')
        .values({
          batch_id: batchId,
          claim_id: claimId,
          method: 'check',
          gross_cents: 50000,
          fee_percent: '40',
          fee_cents: 20000,
          costs_cents: 0,
          withholding_cents: 0,
          net_cents: 30000,
          status: 'pending',
          provider_batch_id: null,
          provider_item_id: null,
          check_number: null,
          failure: null,
          replaces_item_id: null,
          updated_at: Date.now(),
        })
        .execute()
      return Number(batchId)
    }

    it("refuses to correct an award once a payout item pays it, or a settlement's share on its own", async () => {
      const paid = await earninClaim()
      await putAward(admin, paid, '500.00').expect(200)
      const batchId = await pendingItem(paid)

      const raised = await putAward(admin, paid, '600.00')
      expect(raised.status).toBe(409)
      expect(raised.body.error.message).toBe(
        `claim ${paid}'s award of $500.00 is in payout batch ${batchId} already: an award is corrected only before it is paid`,
      )

      const shared = await earninClaim()
      await earninClaim()
      const settlement = await settle(admin, { name: 'Pair', total: '10.01', rule: 'equal' })
      expect(settlement.status).toBe(201)
      // left out, the claims are every filed claim of the app: the two just filed among them
      expect(settlement.body.shares.map(({ claimId }: { claimId: number }) => claimId)).toContain(shared)
      const share = await putAward(admin, shared, '99.00')
      expect(share.status).toBe(409)
      expect(share.body.error.message).toMatch(
        new RegExp(`^claim ${shared}'s award is its share of settlement`),
      )
      expect((await trustOf([paid, shared])).map((entry) => Number(entry.amount_cents))).toHaveLength(2)
    })

    it('enters the costs advanced on a claim with its award, in the sealed audit entry and the list; a payments account changes them', async () => {
      const claimId = await earninClaim()
      const set = await request(ctx.app)
        .put(`/api/staff/claims/${claimId}/award`)
        .set(SAME_SITE)
        .set('Cookie', paralegal)
        .send({ amount: '1,000.00', costs: '$75.25' })
      expect(set.status).toBe(200)
      expect(set.body).toEqual({
        claimId,
        grossCents: 100000,
        costsCents: 7525,
        status: 'awarded',
        changed: true,
      } satisfies AwardSet)
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'detail'])
        .where('action', '=', 'award_entered')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(audit.detail).toBe(`claim ${claimId}: 1 award, $1,000.00 in all, $75.25 costs advanced`)
      const sealed = await ctx.db
        .selectFrom('evidence_ledger')
        .select('kind')
        .where('subject', '=', `audit:${audit.id}`)
        .execute()
      expect(sealed).toEqual([{ kind: 'audit' }])
      // the award's money in trust is the award: the costs go out of it only when it is paid
      expect((await trustOf([claimId])).map((entry) => Number(entry.amount_cents))).toEqual([100000])

      const payer = await signInNewAccount(ctx, SITE, {
        email: 'payer@firm.test',
        name: 'Pay Er',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: false, canPay: true }],
        password: PASSWORD,
      })
      const changed = await putCosts(payer, claimId, '120.00')
      expect(changed.status).toBe(200)
      expect(changed.body).toMatchObject({ grossCents: 100000, costsCents: 12000, changed: true })
      expect((await auditDetails('award_costs_set')).at(-1)).toEqual({
        detail: `claim ${claimId}: costs advanced $75.25 → $120.00`,
        actor: 'payer@firm.test',
      })
      expect((await putCosts(payer, claimId, '120')).body).toMatchObject({ changed: false })
      // the payments right sets the costs, never the award itself
      expect((await putAward(payer, claimId, '2,000.00')).status).toBe(403)
      expect((await putCosts(viewer, claimId, '1.00')).status).toBe(403)
      const list = (
        await request(ctx.app).get('/api/staff/apps/earnin/awards').set('Cookie', payer).expect(200)
      ).body as AwardList
      expect(list.awards.find((row) => row.claimId === claimId)).toMatchObject({
        grossCents: 100000,
        costsCents: 12000,
      })
      expect(list.totals.costsCents).toBeGreaterThanOrEqual(12000)
    })

    it.each([
      ['-5.00', '"costs" "-5.00" is negative; an amount here is never below 0'],
      ['12.345', '"costs" "12.345" has more than two decimals; round it to whole cents'],
      ['lots', '"costs" "lots" is not a dollar amount; write it like 1,234.56 or $12'],
      [12.5, '"costs" must be a dollar amount written as text, like "75.00" ("" or "0" for none)'],
      [
        '1,000.01',
        "is more than claim CLAIM's award ($1,000.00): the costs advanced on a claim are at most its award",
      ],
    ])('refuses costs of %j with a 422 naming "costs", and stores nothing', async (costs, message) => {
      const claimId = await earninClaim()
      const res = await request(ctx.app)
        .put(`/api/staff/claims/${claimId}/award`)
        .set(SAME_SITE)
        .set('Cookie', paralegal)
        .send({ amount: '1,000.00', costs })
      expect(res.status).toBe(422)
      expect(res.body.error.message).toContain(message.replace('CLAIM', String(claimId)))
      expect(await awardsOf([claimId])).toEqual([])
      expect(await trustOf([claimId])).toEqual([])
      expect(await statusOf(claimId)).toBe('filed')

      await putAward(paralegal, claimId, '1,000.00').expect(200)
      const later = await putCosts(paralegal, claimId, costs)
      expect(later.status).toBe(422)
      expect(later.body.error.message).toContain(message.replace('CLAIM', String(claimId)))
      const stored = await ctx.db
        .selectFrom('claim_awards')
        .select('costs_cents')
        .where('claim_id', '=', claimId)
        .executeTakeFirstOrThrow()
      expect(Number(stored.costs_cents)).toBe(0)
    })

    it('refuses costs on a claim without an award, and once a payout item pays it', async () => {
      const filed = await earninClaim()
      const none = await putCosts(admin, filed, '10.00')
      expect(none.status).toBe(409)
      expect(none.body.error.message).toBe(
        `claim ${filed} has no award: the costs advanced on a claim are entered on its award`,
      )
      const paid = await earninClaim()
      await putAward(admin, paid, '500.00').expect(200)
      const batchId = await pendingItem(paid)
      const refused = await putCosts(admin, paid, '10.00')
      expect(refused.status).toBe(409)
      expect(refused.body.error.message).toBe(
        `claim ${paid}'s award is in payout batch ${batchId} already: the costs advanced on it are set only before it is paid`,
      )
    })

    it('imports the costs of an optional Costs column, and names each line whose costs are wrong', async () => {
      const claims = [
        await earninClaim({ caseNumber: '01-26-0010-0001' }),
        await earninClaim({ caseNumber: '01-26-0010-0002' }),
        await earninClaim({ caseNumber: '01-26-0010-0003' }),
      ]
      const faulty = [
        'Case Number,Award,Costs',
        '01-26-0010-0001,"1,000.00",50.00',
        '01-26-0010-0002,200.00,-3.00',
        '01-26-0010-0003,100.00,100.01',
      ].join('\n')
      const refused = await importFile(paralegal, faulty)
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toBe(
        [
          'the award file was not imported:',
          'line 3: the costs "-3.00" is negative; an amount here is never below 0',
          'line 4: the costs ($100.01) are more than the award ($100.00): the costs advanced on a claim are at most its award',
        ].join('\n'),
      )
      expect(await awardsOf(claims)).toEqual([])

      const good = [
        'Case Number,Award,Costs',
        '01-26-0010-0001,"1,000.00",50.00',
        '01-26-0010-0002,200.00,',
        '01-26-0010-0003,100.00,$100',
      ].join('\n')
      const res = await importFile(paralegal, good)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ imported: 3, totalCents: 130000, costsCents: 15000 })
      const stored = await ctx.db
        .selectFrom('claim_awards')
        .select(['claim_id', 'costs_cents'])
        .where('claim_id', 'in', claims)
        .orderBy('claim_id')
        .execute()
      expect(stored.map((row) => Number(row.costs_cents))).toEqual([5000, 0, 10000])
      expect((await auditDetails('awards_imported')).at(-1)?.detail).toMatch(
        /^3 awards, \$1,300\.00 in all, \$150\.00 costs advanced \(file SHA-256 [0-9a-f]{64}\)$/,
      )
    })

    it('still counts an awarded claim as approved in the funnel', async () => {
      const approvedInFunnel = async () =>
        ((await request(ctx.app).get('/api/staff/funnel').set('Cookie', admin).expect(200)).body as Funnel)
          .total.approved
      const before = await approvedInFunnel()
      const claimId = await earninClaim()
      expect(await approvedInFunnel()).toBe(before + 1)

      await putAward(admin, claimId, '42.00').expect(200)

      expect(await statusOf(claimId)).toBe('awarded')
      expect(await approvedInFunnel()).toBe(before + 1)
    })
  })
}

/** A built filing batch of Earnin's, as the builder leaves it (nothing due), for a row ID to name. */
async function filingBatchRow(ctx: TestContext) {
  const account = await ctx.db
    .selectFrom('staff_accounts')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow()
  return {
    app: 'earnin',
    kind: 'filing' as const,
    status: 'ready' as const,
    problem: null,
    provider: 'aaa',
    claim_count: 1,
    created_at: Date.now(),
    account_id: Number(account.id),
    actor: 'admin@firm.test',
    client_address: '127.0.0.1',
    link_origin: `http://${SITE}`,
    due_at: null,
    file_key: null,
    bytes: null,
    sha256: null,
    batch_hash: null,
    sent_on: null,
    sent_method: null,
    sent_tracking: null,
  }
}
