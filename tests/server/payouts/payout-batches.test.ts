import { Writable } from 'node:stream'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutItemView, PayoutReconciliation, PayoutsPage } from '../../../src/api/payouts.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { createLogger } from '../../../server/logger.ts'
import { SAME_ACCOUNT_MESSAGE } from '../../../server/payouts/payout-batches.ts'
import { paypalApi } from '../../../server/payouts/providers/paypal-api.ts'
import { seedClaim } from '../support/claims.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { parseNacha } from '../support/parse-nacha.ts'
import { awardClaim, signInMakerAndChecker, type TestTaxForm } from '../support/payout-fixtures.ts'
import { startPayPalStandIn, type PayPalStandIn } from '../support/paypal-stand-in.ts'
import { loginStaff, SAME_SITE, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'dashboard.test'
// brigit's agreement states the firm's fee; earnin's (sections 1 and 2) states none
const APP = 'brigit'
// the numbers that must never leave the server whole (the ACH file for the bank aside)
const ACCOUNT = '4455667788'
const SSN = '234-56-7890'
const EIN = '98-7654321'
const FIRM_ACCOUNT = '5550001112'
const SECRETS = [ACCOUNT, SSN, SSN.replace(/-/g, ''), EIN, EIN.replace(/-/g, '')]

const w9 = (legalName: string, tinType: 'ssn' | 'ein' = 'ssn', tin = SSN): TestTaxForm => ({
  legalName,
  tinType,
  tin,
  address: '12 Main St',
  city: 'Fresno',
  state: 'CA',
  zip: '93701',
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: payout batches`, () => {
    let ctx: TestContext
    let standIn: PayPalStandIn
    let maker: string
    let checker: string
    const logLines: string[] = []
    const claims: Record<'paypal' | 'venmo' | 'ach' | 'check' | 'failing', number> = {
      paypal: 0,
      venmo: 0,
      ach: 0,
      check: 0,
      failing: 0,
    }

    beforeAll(async () => {
      standIn = await startPayPalStandIn()
      // one try a call: a failure fails the job's attempt, and the runner's retry policy tries again
      const api = paypalApi({
        baseUrl: standIn.url,
        clientId: standIn.clientId,
        clientSecret: standIn.clientSecret,
        maxAttempts: 1,
      })
      ctx = await createTestContext(dialect, {
        logger: createLogger(
          'debug',
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              logLines.push(chunk.toString('utf8'))
              done()
            },
          }),
        ),
        payouts: {
          paypal: { api, webhookId: standIn.webhookId },
          settings: {
            paypal: {
              baseUrl: standIn.url,
              clientId: standIn.clientId,
              clientSecret: standIn.clientSecret,
              webhookId: standIn.webhookId,
            },
            ach: {
              originRouting: '021000021',
              originAccount: FIRM_ACCOUNT,
              companyName: 'Example Firm LLP',
              companyId: '1234567890',
            },
            firstCheckNumber: 5001,
          },
        },
      })
      const seed = async (n: number, lastName: string) =>
        (
          await seedClaim(ctx, {
            app: APP,
            status: 'filed',
            fields: {
              firstName: 'Pat',
              lastName,
              email: `pat.${lastName.toLowerCase()}@mail.test`,
              phoneNumber: `(555) 300-00${String(n).padStart(2, '0')}`,
            },
          })
        ).id
      claims.paypal = await seed(1, 'Paypal')
      claims.venmo = await seed(2, 'Venmo')
      claims.ach = await seed(3, 'Bank')
      claims.check = await seed(4, 'Check')
      claims.failing = await seed(5, 'Failing')
      await awardClaim(ctx, {
        claimId: claims.paypal,
        app: APP,
        grossCents: 100_000,
        choice: { method: 'paypal', receiver: 'pat.paypal@mail.test', receiverType: 'email' },
        taxForm: w9('Pat Paypal'),
      })
      // no W-9: backup withholding
      await awardClaim(ctx, {
        claimId: claims.venmo,
        app: APP,
        grossCents: 50_000,
        choice: { method: 'venmo', receiver: '+1 408 555 0101', receiverType: 'phone' },
        taxForm: null,
      })
      await awardClaim(ctx, {
        claimId: claims.ach,
        app: APP,
        grossCents: 80_000,
        choice: {
          method: 'ach',
          routingNumber: '011000015',
          accountNumber: ACCOUNT,
          accountType: 'checking',
        },
        taxForm: w9('Pat Bank', 'ein', EIN),
      })
      await awardClaim(ctx, {
        claimId: claims.check,
        app: APP,
        grossCents: 30_000,
        choice: { method: 'check' },
        taxForm: w9('Pat Check'),
      })
      await awardClaim(ctx, {
        claimId: claims.failing,
        app: APP,
        grossCents: 60_000,
        choice: { method: 'paypal', receiver: 'pat.failing@mail.test', receiverType: 'email' },
        taxForm: w9('Pat Failing'),
      })
      standIn.markReceiver('pat.failing@mail.test', { status: 'FAILED', errorName: 'RECEIVER_UNREGISTERED' })
      ;({ maker, checker } = await signInMakerAndChecker(ctx, { site: SITE, app: APP }))
    })
    afterAll(async () => {
      await ctx?.close()
      await standIn?.close()
    })

    const get = (url: string, cookie: string) =>
      request(ctx.app).get(url).set(SAME_SITE).set('Cookie', cookie)
    const post = (url: string, cookie: string, body: unknown = {}) =>
      request(ctx.app)
        .post(url)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body as object)
    const items = async (batchId: number) =>
      (await get(`/api/staff/payout-batches/${batchId}/items`, checker).expect(200)).body
        .items as PayoutItemView[]
    const itemOf = (list: PayoutItemView[], claimId: number) =>
      list.filter((item) => item.claimId === claimId).sort((a, b) => a.id - b.id)
    const answers: string[] = []
    let batchId = 0

    it('builds a batch of every awarded claim with its split, the costs spread and backup withholding without a W-9', async () => {
      const page = (await get(`/api/staff/apps/${APP}/payouts`, maker).expect(200)).body as PayoutsPage
      expect(page.isPayPalSetUp).toBe(true)
      expect(page.candidates).toMatchObject({ count: 5, grossCents: 320_000, withoutTaxForm: 1 })

      const built = await post(`/api/staff/apps/${APP}/payouts`, maker, { costs: '12.50' }).expect(201)
      answers.push(JSON.stringify(built.body))
      batchId = built.body.batchId as number
      // 40% fee as the signed agreement states it; $12.50 of costs is $2.50 a claim
      expect(built.body.totals).toEqual({
        count: 5,
        grossCents: 320_000,
        feeCents: 128_000,
        costsCents: 1250,
        withholdingCents: 7140,
        netCents: 183_610,
      })
      const list = await items(batchId)
      expect(itemOf(list, claims.venmo)[0]).toMatchObject({
        feePercent: '40',
        feeCents: 20_000,
        costsCents: 250,
        withholdingCents: 7140,
        netCents: 22_610,
        tin: null,
        status: 'pending',
      })
      expect(itemOf(list, claims.ach)[0]).toMatchObject({
        netCents: 47_750,
        account: '••••7788',
        tin: '••••4321',
      })
      expect(itemOf(list, claims.paypal)[0]).toMatchObject({ receiver: 'p••••@mail.test', tin: '••••7890' })
    })

    it('leaves out a claim whose signed agreement states no fee, and names it', async () => {
      const { id } = await seedClaim(ctx, {
        app: 'earnin',
        status: 'filed',
        fields: { email: 'no.fee@mail.test', phoneNumber: '(555) 300-0099' },
      })
      await awardClaim(ctx, {
        claimId: id,
        app: 'earnin',
        grossCents: 10_000,
        choice: { method: 'check' },
        taxForm: w9('No Fee'),
      })
      const refused = await post(
        '/api/staff/apps/earnin/payouts',
        await loginStaff(ctx.app, { site: SITE }),
        { costs: '0' },
      ).expect(409)
      expect(refused.body.error.message).toBe(
        `no claim of "earnin" can be paid: claim ${id}: its signed agreement states no fee percent ("The firm's fee is N% of the gross recovery"); no fee can be taken from its award until the firm and the claimant agree one in writing`,
      )
    })

    it('refuses the approval of the account that built the batch, and takes another with the payments right', async () => {
      const same = await post(`/api/staff/payout-batches/${batchId}/approve`, maker).expect(403)
      expect(same.body.error.message).toBe(SAME_ACCOUNT_MESSAGE)
      expect(SAME_ACCOUNT_MESSAGE).toBe(
        'the account that built a payout batch cannot approve it: another account with the payments right must',
      )
      const approved = await post(`/api/staff/payout-batches/${batchId}/approve`, checker).expect(200)
      expect(approved.body).toMatchObject({
        status: 'approved',
        builtBy: 'maker@firm.test',
        approvedBy: 'checker@firm.test',
      })
      await post(`/api/staff/payout-batches/${batchId}/approve`, checker).expect(409)
    })

    it('sends the batch once though PayPal failed twice, retried by the runner; checks get numbers, ACH is sent', async () => {
      standIn.failNext({ with: 503, route: 'create-batch' })
      standIn.failNext({ with: 'drop-after-handling', route: 'create-batch' })
      let now = Date.now()
      await ctx.payoutSender.runDue(now)
      let list = await items(batchId)
      expect(itemOf(list, claims.check)[0]).toMatchObject({ status: 'sent', checkNumber: 5001 })
      expect(itemOf(list, claims.ach)[0]!.status).toBe('sent')
      expect(itemOf(list, claims.paypal)[0]!.status).toBe('pending')
      // PayPal settles an item before its send is recorded: asked to deliver it again, and nothing kept
      const paypalItem = itemOf(list, claims.paypal)[0]!
      const early = standIn.signWebhook({
        id: 'WH-EARLY-0000000001',
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: 'payouts_item',
        event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED',
        summary: 'Payout item succeeded',
        resource: {
          payout_item_id: 'EARLYITEM0000001',
          transaction_status: 'SUCCESS',
          payout_item_fee: { currency: 'USD', value: '0.00' },
          payout_batch_id: 'EARLYBATCH000001',
          sender_batch_id: 'early',
          payout_item: {
            recipient_type: 'EMAIL',
            amount: { value: '1.00', currency: 'USD' },
            receiver: 'early@example.com',
            sender_item_id: `item-${paypalItem.id}`,
            recipient_wallet: 'PAYPAL',
          },
        },
      })
      const notYet = await request(ctx.app)
        .post('/api/payouts/paypal/webhook')
        .set(early.headers)
        .set('Content-Type', 'application/json')
        .send(early.body)
      expect([notYet.status, notYet.headers['retry-after'], notYet.body.error.code]).toEqual([
        503,
        '10',
        'NOT_SENT_YET',
      ])
      expect(itemOf(await items(batchId), claims.paypal)[0]!.status).toBe('pending')
      expect(
        await ctx.db
          .selectFrom('payout_events')
          .select('event_id')
          .where('event_id', '=', 'WH-EARLY-0000000001')
          .execute(),
      ).toEqual([])
      // the first retry a minute later: PayPal made the batch but its answer was lost
      now += 61_000
      await ctx.payoutSender.runDue(now)
      expect(standIn.batches()).toHaveLength(1)
      expect(itemOf(await items(batchId), claims.paypal)[0]!.status).toBe('pending')
      // the second, five minutes on: the same request id, answered with the batch PayPal made
      now += 5 * 60_000 + 1000
      await ctx.payoutSender.runDue(now)
      expect(standIn.batches()).toHaveLength(1)
      expect(standIn.batches()[0]!.itemCount).toBe(3)
      list = await items(batchId)
      for (const claimId of [claims.paypal, claims.venmo, claims.failing]) {
        expect(itemOf(list, claimId)[0]!.status).toBe('sent')
      }
      const sent = standIn.received.filter((call) => call.route === 'create-batch' && call.answer === 201)
      const wallets = (sent[0]!.body as { items: { recipient_wallet: string; sender_item_id: string }[] })
        .items
      expect(wallets.map((item) => item.recipient_wallet).sort()).toEqual(['PAYPAL', 'PAYPAL', 'VENMO'])
      expect(wallets.every((item) => /^item-\d+$/.test(item.sender_item_id))).toBe(true)
      const page = (await get(`/api/staff/apps/${APP}/payouts`, checker).expect(200)).body as PayoutsPage
      expect(page.batches[0]).toMatchObject({ id: batchId, status: 'sent' })
    })

    it("applies PayPal's webhooks once; a failed item puts its net back in trust and is paid by check instead", async () => {
      const webhooks = await standIn.settle()
      expect(webhooks).toHaveLength(3)
      for (const webhook of webhooks) {
        await request(ctx.app)
          .post('/api/payouts/paypal/webhook')
          .set(webhook.headers)
          .set('Content-Type', 'application/json')
          .send(webhook.body)
          .expect(200)
      }
      // the same delivery again changes nothing
      const again = webhooks[0]!
      await request(ctx.app)
        .post('/api/payouts/paypal/webhook')
        .set(again.headers)
        .set('Content-Type', 'application/json')
        .send(again.body)
        .expect(200)
      // a body changed after PayPal signed it
      await request(ctx.app)
        .post('/api/payouts/paypal/webhook')
        .set(again.headers)
        .set('Content-Type', 'application/json')
        .send(again.body.replace('SUCCEEDED', 'FAILED'))
        .expect(401)

      let list = await items(batchId)
      expect(itemOf(list, claims.paypal)[0]!.status).toBe('paid')
      expect(itemOf(list, claims.venmo)[0]!.status).toBe('paid')
      const [failed, fallback] = itemOf(list, claims.failing)
      expect(failed).toMatchObject({ status: 'failed', failure: 'RECEIVER_UNREGISTERED' })
      expect(fallback).toMatchObject({
        method: 'check',
        status: 'pending',
        netCents: 35_750,
        replacesItemId: failed!.id,
      })
      const returned = await ctx.db
        .selectFrom('trust_entries')
        .select('amount_cents')
        .where('kind', '=', 'returned')
        .execute()
      expect(returned.map((row) => Number(row.amount_cents))).toEqual([35_750])

      await ctx.payoutSender.runDue(Date.now() + 1000)
      list = await items(batchId)
      expect(itemOf(list, claims.failing)[1]).toMatchObject({ status: 'sent', checkNumber: 5002 })
    })

    it('balances the trust account to 0 cents, per batch and per app, and verify-evidence passes', async () => {
      for (const url of [
        `/api/staff/payout-batches/${batchId}/reconciliation`,
        `/api/staff/apps/${APP}/payouts/reconciliation`,
      ]) {
        const rec = (await get(url, checker).expect(200)).body as PayoutReconciliation
        expect(rec.differenceCents).toBe(0)
        expect(rec.fromTrustEntries).toEqual({
          receivedCents: 320_000,
          feeCents: 128_000,
          costsCents: 1250,
          withholdingCents: 7140,
          netPaidCents: 183_610 + 35_750,
          returnedCents: 35_750,
          heldCents: 0,
        })
      }
      const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
      expect(report.problems).toEqual([])
      expect(report.trustEntries).toBeGreaterThan(5)
    })

    it('gives the ACH file, the check register and positive pay to the payments right, with the right totals', async () => {
      const ach = await get(`/api/staff/payout-batches/${batchId}/ach.txt`, checker).expect(200)
      const file = parseNacha(ach.text)
      expect(file.batches).toHaveLength(1)
      expect(file.batches[0]!.entries).toHaveLength(1)
      expect(file.batches[0]!.entries[0]).toMatchObject({
        transactionCode: '22',
        receivingDfi: '01100001',
        amount: '0000047750',
        individualName: 'PAT BANK'.padEnd(22),
      })
      expect(file.batches[0]!.entries[0]!.dfiAccountNumber?.trim()).toBe(ACCOUNT)
      expect(file.control.totalCredit).toBe('000000047750')

      const checks = await get(`/api/staff/payout-batches/${batchId}/checks.csv`, checker).expect(200)
      answers.push(checks.text)
      const rows = checks.text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
      expect(rows).toHaveLength(3)
      expect(rows[1]).toMatch(/^5001,\d{4}-\d{2}-\d{2},Pat Check,177\.50,12 Main St,/)
      expect(rows[2]).toMatch(/^5002,\d{4}-\d{2}-\d{2},Pat Failing,357\.50,/)
      const positivePay = await get(`/api/staff/payout-batches/${batchId}/positive-pay.csv`, checker).expect(
        200,
      )
      answers.push(positivePay.text)
      expect(positivePay.text.trim().split('\r\n').slice(1)).toEqual([
        expect.stringMatching(/^5550001112,5001,\d{4}-\d{2}-\d{2},177\.50,Pat Check$/),
        expect.stringMatching(/^5550001112,5002,\d{4}-\d{2}-\d{2},357\.50,Pat Failing$/),
      ])
      const viewer = await signInNewAccount(ctx, SITE, {
        email: 'viewer@firm.test',
        password: 'viewer password 12',
        name: 'Vi Viewer',
        role: 'staff',
        apps: [{ app: APP, canExport: false }],
      })
      await get(`/api/staff/payout-batches/${batchId}/ach.txt`, viewer).expect(403)
      await post(`/api/staff/apps/${APP}/payouts`, viewer, { costs: '0' }).expect(403)
    })

    it('reports checks out over 90 days, gives the statement PDF, and refuses a batch of no claim', async () => {
      expect(
        (await get(`/api/staff/apps/${APP}/payouts/uncashed-checks`, checker).expect(200)).body.checks,
      ).toEqual([])
      await ctx.db
        .updateTable('payout_items')
        .set({ updated_at: Date.now() - 91 * 86_400_000 })
        .where('claim_id', '=', claims.check)
        .execute()
      const uncashed = (await get(`/api/staff/apps/${APP}/payouts/uncashed-checks`, checker).expect(200)).body
      // payouts.json's uncashedCheckDays; the payee is the W-9's legal name, masked
      expect(uncashed.uncashedCheckDays).toBe(90)
      expect(uncashed.checks).toEqual([
        expect.objectContaining({
          claimId: claims.check,
          payee: 'P•••• C••••',
          checkNumber: 5001,
          netCents: 17_750,
          daysOut: 91,
        }),
      ])
      const pdf = await get(`/api/staff/claims/${claims.ach}/payout-statement.pdf`, checker)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => done(null, Buffer.concat(chunks)))
        })
        .expect(200)
      expect(pdf.headers['content-type']).toBe('application/pdf')
      expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-')

      const none = await post(`/api/staff/apps/${APP}/payouts`, maker, { costs: '0' }).expect(409)
      expect(none.body.error.message).toMatch(/^no claim of "brigit" is ready to pay/)
    })

    it('shows no full account number or TIN in any answer, CSV or log line', async () => {
      answers.push(JSON.stringify(await items(batchId)))
      answers.push(JSON.stringify((await get(`/api/staff/apps/${APP}/payouts`, checker)).body))
      const everything = [...answers, ...logLines].join('\n')
      for (const secret of SECRETS) expect(everything).not.toContain(secret)
    })

    it('names a trust entry whose amount was changed, and the reconciliation that no longer balances', async () => {
      const entry = await ctx.db
        .selectFrom('trust_entries')
        .select('id')
        .where('kind', '=', 'fee')
        .orderBy('id')
        .executeTakeFirstOrThrow()
      await ctx.db.updateTable('trust_entries').set({ amount_cents: -1 }).where('id', '=', entry.id).execute()
      const report = await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })
      expect(report.problems).toEqual([
        expect.stringMatching(
          new RegExp(`^trust entry ${entry.id} \\(fee of claim \\d+\\): sealed record differs`),
        ),
        expect.stringMatching(
          /^payouts of "brigit": the trust entries and the awards and items differ \(feeCents/,
        ),
      ])
    })
  })
}
