import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PayoutBatchBuilt, PayoutItemView, PayoutReconciliation } from '../../../src/api/payouts.ts'
import type { PayoutMethod } from '../../../server/db/database.ts'
import { paypalApi } from '../../../server/payouts/providers/paypal-api.ts'
import { seedClaim } from '../support/claims.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { awardClaim, signInMakerAndChecker, type TestPayoutChoice } from '../support/payout-fixtures.ts'
import { startPayPalStandIn, type PayPalStandIn } from '../support/paypal-stand-in.ts'
import { pdfText } from '../support/pdf-text.ts'
import { SAME_SITE } from '../support/staff-sign-in.ts'

const APP = 'brigit'
const SITE = 'dashboard.test'
const CLAIMANTS = 110
const PICKED = 100
/**
 * Statement PDFs read per database: all the drawn claimants' on SQLite; on PostgreSQL, where only the
 * reads behind the statement differ, the first 20 of the draw (each PDF takes a third of a second to
 * render and read).
 */
const STATEMENTS_READ = { sqlite: PICKED, postgres: 20 } as const
// PAYOUT_STATEMENTS_SEED=<n> repeats a run: the seed picks the awards, the choices and the claimants checked
const SEED = Number(process.env.PAYOUT_STATEMENTS_SEED ?? crypto.randomInt(2 ** 31))
console.log(`payout statements: random seed ${SEED} (PAYOUT_STATEMENTS_SEED=${SEED} repeats this run)`)

/** mulberry32: a small seeded generator, so a failing draw can be run again. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

interface Claimant {
  claimId: number
  grossCents: number
  /** Costs the firm advanced on this claim, entered on its award by a payments account; 0 for none. */
  claimCostsCents: number
  method: PayoutMethod
  hasTaxForm: boolean
  lang: 'en' | 'es'
}

/** Expected amounts, worked out here with whole numbers only, from the award, the signed percent and the costs. */
interface Expected {
  percent: string
  grossCents: number
  feeCents: number
  costsCents: number
  withholdingCents: number
  netCents: number
  /** Costs asked but more than the award left after the fee: not charged. */
  waivedCents: number
}

/** The percent as the signed agreement renders it, in English or Spanish. */
function signedPercent(html: string): string {
  const found = [
    ...html.matchAll(/The firm's fee is (\d+(?:\.\d+)?)% of the gross recovery/g),
    ...html.matchAll(/Los honorarios de la firma son el (\d+(?:\.\d+)?)% de la recuperación bruta/g),
  ].map((match) => match[1]!)
  expect(new Set(found).size, 'one fee percent in the signed agreement').toBe(1)
  return found[0]!
}

/** gross × percent / 100 to the nearest cent, half a cent up, on integers: "33.5" is 335 / 1000. */
function feeOf(grossCents: number, percent: string): number {
  const [whole, decimals = ''] = percent.split('.')
  const numerator = BigInt(`${whole}${decimals}`)
  const denominator = 100n * 10n ** BigInt(decimals.length)
  return Number((BigInt(grossCents) * numerator * 2n + denominator) / (denominator * 2n))
}

/** The batch's costs in equal shares, the odd cents to the lowest claim ids, one each. */
function costShares(totalCents: number, claimIds: readonly number[]): Map<number, number> {
  const sorted = [...claimIds].sort((a, b) => a - b)
  const base = Math.floor(totalCents / sorted.length)
  const odd = totalCents - base * sorted.length
  return new Map(sorted.map((id, index) => [id, base + (index < odd ? 1 : 0)]))
}

function expectedSplit({
  grossCents,
  percent,
  claimCostsCents,
  costsShareCents,
  hasTaxForm,
}: {
  grossCents: number
  percent: string
  claimCostsCents: number
  costsShareCents: number
  hasTaxForm: boolean
}): Expected {
  const feeCents = feeOf(grossCents, percent)
  // the claim's own costs and its share of the batch's, only out of what the fee leaves: the claimant
  // never owes the firm
  const askedCents = claimCostsCents + costsShareCents
  const costsCents = Math.min(askedCents, grossCents - feeCents)
  const left = grossCents - feeCents - costsCents
  // backup withholding, 24 %, half a cent up
  const withholdingCents = hasTaxForm ? 0 : Math.floor((left * 24 * 2 + 100) / 200)
  return {
    percent,
    grossCents,
    feeCents,
    costsCents,
    withholdingCents,
    netCents: left - withholdingCents,
    waivedCents: askedCents - costsCents,
  }
}

/** "$1,234.56", written out here rather than by the product's formatter. */
function dollars(cents: number): string {
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+$)/g, ',')
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`
}

const LABELS = {
  en: {
    gross: 'Award (gross recovery)',
    fee: (percent: string) => `Attorney fee (${percent}%)`,
    costs: 'Case costs',
    claimCosts: 'Costs advanced on your claim',
    sharedCosts: 'Your share of shared costs',
    waived: 'Costs you do not owe',
    withholding: 'Backup withholding',
    net: 'Net to you',
  },
  es: {
    gross: 'Monto otorgado (recuperación bruta)',
    fee: (percent: string) => `Honorarios de abogados (${percent}%)`,
    costs: 'Gastos del caso',
    claimCosts: 'Gastos adelantados en su reclamo',
    sharedCosts: 'Su parte de los gastos compartidos',
    waived: 'Gastos que usted no debe',
    withholding: 'Retención adicional',
    net: 'Neto para usted',
  },
} as const

for (const dialect of DIALECTS) {
  describe(`${dialect}: payouts of ${PICKED} claimants drawn at random (seed ${SEED})`, () => {
    let ctx: TestContext
    let standIn: PayPalStandIn
    let maker: string
    let checker: string
    const claimants: Claimant[] = []
    const random = randomFrom(SEED)
    const costsTotalCents = 1 + Math.floor(random() * 2_000_000)
    let items: PayoutItemView[] = []
    let reconciliation: PayoutReconciliation

    beforeAll(async () => {
      standIn = await startPayPalStandIn()
      ctx = await createTestContext(dialect, {
        payouts: {
          paypal: {
            api: paypalApi({
              baseUrl: standIn.url,
              clientId: standIn.clientId,
              clientSecret: standIn.clientSecret,
            }),
            webhookId: standIn.webhookId,
          },
          settings: {
            paypal: {
              baseUrl: standIn.url,
              clientId: standIn.clientId,
              clientSecret: standIn.clientSecret,
              webhookId: standIn.webhookId,
            },
          },
        },
      })
      const methods: PayoutMethod[] = ['paypal', 'venmo', 'ach', 'check']
      for (let n = 0; n < CLAIMANTS; n++) {
        const lang = random() < 0.2 ? 'es' : 'en'
        const { id } = await seedClaim(ctx, {
          app: APP,
          status: 'filed',
          ...(lang === 'es' ? { lang } : {}),
          fields: {
            firstName: 'Pat',
            lastName: `Payee${n}`,
            email: `pat.payee${n}@mail.test`,
            phoneNumber: `(555) 3${String(n % 100).padStart(2, '0')}-${String(1000 + n)}`,
          },
        })
        // a few tiny awards, so that the costs are capped at what the fee leaves
        const isTiny = random() < 0.1
        const grossCents = isTiny ? 1 + Math.floor(random() * 3_000) : 10_000 + Math.floor(random() * 990_000)
        // half the claims had costs advanced on them, at most their award (a tiny one's often past the fee)
        const claimCostsCents =
          random() < 0.5 ? 1 + Math.floor(random() * Math.min(grossCents, isTiny ? 3_000 : 60_000)) : 0
        // a tiny award may net $0.00: settled with nothing sent, whatever the method
        const method: PayoutMethod = methods[Math.floor(random() * methods.length)]!
        const hasTaxForm = random() >= 0.15
        const choice: TestPayoutChoice =
          method === 'paypal'
            ? { method, receiver: `pat.payee${n}@mail.test`, receiverType: 'email' }
            : method === 'venmo'
              ? { method, receiver: `+1 408 555 ${String(1000 + n)}`, receiverType: 'phone' }
              : method === 'ach'
                ? {
                    method,
                    routingNumber: '011000015',
                    accountNumber: `88${1_000_000 + n}`,
                    accountType: 'checking',
                  }
                : { method }
        await awardClaim(ctx, {
          claimId: id,
          app: APP,
          grossCents,
          choice,
          taxForm: hasTaxForm
            ? {
                legalName: `Pat Payee${n}`,
                tinType: 'ssn',
                tin: `234-56-${String(1000 + n)}`,
                address: '12 Main St',
                city: 'Fresno',
                state: 'CA',
                zip: '93701',
              }
            : null,
        })
        claimants.push({ claimId: id, grossCents, claimCostsCents, method, hasTaxForm, lang })
      }
      ;({ maker, checker } = await signInMakerAndChecker(ctx, { site: SITE, app: APP }))

      // the costs advanced on each claim, entered on its award as a payments account does
      for (const { claimId, claimCostsCents } of claimants) {
        if (claimCostsCents === 0) continue
        const set = await request(ctx.app)
          .put(`/api/staff/claims/${claimId}/award/costs`)
          .set(SAME_SITE)
          .set('Cookie', maker)
          .send({ costs: dollars(claimCostsCents) })
          .expect(200)
        expect(set.body).toMatchObject({ claimId, costsCents: claimCostsCents, changed: true })
      }

      // the batch, as staff make it: built by one account, approved by another, sent, and paid
      const built = await request(ctx.app)
        .post(`/api/staff/apps/${APP}/payouts`)
        .set(SAME_SITE)
        .set('Cookie', maker)
        .send({ costs: dollars(costsTotalCents) })
        .expect(201)
      const { batchId, leftOut } = built.body as PayoutBatchBuilt
      expect(leftOut).toEqual([])
      await request(ctx.app)
        .post(`/api/staff/payout-batches/${batchId}/approve`)
        .set(SAME_SITE)
        .set('Cookie', checker)
        .expect(200)
      await ctx.payoutSender.runDue(Date.now())
      for (const webhook of await standIn.settle()) {
        await request(ctx.app)
          .post('/api/payouts/paypal/webhook')
          .set(webhook.headers)
          .set('Content-Type', 'application/json')
          .send(webhook.body)
          .expect(200)
      }
      items = (
        await request(ctx.app)
          .get(`/api/staff/payout-batches/${batchId}/items?pageSize=200`)
          .set(SAME_SITE)
          .set('Cookie', checker)
          .expect(200)
      ).body.items as PayoutItemView[]
      reconciliation = (
        await request(ctx.app)
          .get(`/api/staff/payout-batches/${batchId}/reconciliation`)
          .set(SAME_SITE)
          .set('Cookie', checker)
          .expect(200)
      ).body as PayoutReconciliation
    }, 300_000)
    afterAll(async () => {
      await ctx?.close()
      await standIn?.close()
    })

    it('pays every claimant, each item sent or paid', () => {
      expect(items).toHaveLength(CLAIMANTS)
      // PayPal and Venmo items are paid once PayPal's webhooks come; an item netting $0.00 at once
      const isPaid = (item: PayoutItemView) =>
        item.method === 'paypal' || item.method === 'venmo' || item.netCents === 0
      expect(items.filter((item) => item.status === 'paid')).toHaveLength(items.filter(isPaid).length)
      expect(items.filter((item) => item.status === 'sent')).toHaveLength(
        items.filter((item) => !isPaid(item)).length,
      )
    })

    it("reconciles the batch to the cent, with the costs advanced on claims and the batch's shared costs told apart", () => {
      const shares = costShares(
        costsTotalCents,
        claimants.map((claimant) => claimant.claimId),
      )
      const advancedCents = claimants.reduce((sum, claimant) => sum + claimant.claimCostsCents, 0)
      const chargedCents = items.reduce((sum, item) => sum + item.costsCents, 0)
      expect(reconciliation.differenceCents).toBe(0)
      expect(reconciliation.fromAwardsAndItems.costsCents).toBe(chargedCents)
      expect(reconciliation.costs).toEqual({
        advancedOnClaimsCents: advancedCents,
        sharedCents: costsTotalCents,
        waivedCents:
          advancedCents + [...shares.values()].reduce((sum, cents) => sum + cents, 0) - chargedCents,
      })
    })

    it(`gives each drawn claimant the fee, costs, withholding and net worked out from the award, the signed percent, the costs advanced on the claim and the batch costs, in the item and (for ${STATEMENTS_READ[dialect]} of them) the statement`, async () => {
      const shares = costShares(
        costsTotalCents,
        claimants.map((claimant) => claimant.claimId),
      )
      // a partial Fisher-Yates shuffle: the first PICKED are the draw
      const order = claimants.map((_, index) => index)
      for (let i = 0; i < PICKED; i++) {
        const j = i + Math.floor(random() * (order.length - i))
        ;[order[i], order[j]] = [order[j]!, order[i]!]
      }
      const picked = order.slice(0, PICKED).map((index) => claimants[index]!)
      console.log(`${dialect}: claims checked: ${picked.map((claimant) => claimant.claimId).join(', ')}`)
      for (const [drawn, claimant] of picked.entries()) {
        const records = await ctx.db
          .selectFrom('agreement_records')
          .select('html')
          .where('claim_id', '=', claimant.claimId)
          .execute()
        const costsShareCents = shares.get(claimant.claimId)!
        const expected = expectedSplit({
          grossCents: claimant.grossCents,
          percent: signedPercent(records.map((record) => record.html).join('\n')),
          claimCostsCents: claimant.claimCostsCents,
          costsShareCents,
          hasTaxForm: claimant.hasTaxForm,
        })
        const item = items.find((each) => each.claimId === claimant.claimId)
        expect(item, `claim ${claimant.claimId}'s item`).toBeDefined()
        const { waivedCents, ...amounts } = expected
        expect(
          {
            percent: item!.feePercent,
            grossCents: item!.grossCents,
            feeCents: item!.feeCents,
            costsCents: item!.costsCents,
            withholdingCents: item!.withholdingCents,
            netCents: item!.netCents,
          },
          `claim ${claimant.claimId}'s item`,
        ).toEqual(amounts)
        if (drawn >= STATEMENTS_READ[dialect]) continue

        const pdf = await request(ctx.app)
          .get(`/api/staff/claims/${claimant.claimId}/payout-statement.pdf`)
          .set(SAME_SITE)
          .set('Cookie', checker)
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = []
            res.on('data', (chunk: Buffer) => chunks.push(chunk))
            res.on('end', () => done(null, Buffer.concat(chunks)))
          })
          .expect(200)
          .expect('Content-Type', 'application/pdf')
        const text = await pdfText(pdf.body as Buffer)
        const label = LABELS[claimant.lang]
        // the costs' parts are told when the firm advanced costs on the claim itself
        const parts =
          claimant.claimCostsCents === 0
            ? []
            : [
                `${label.claimCosts} ${dollars(claimant.claimCostsCents)}`,
                ...(costsShareCents > 0 ? [`${label.sharedCosts} ${dollars(costsShareCents)}`] : []),
                ...(waivedCents > 0 ? [`${label.waived} ${dollars(waivedCents)}`] : []),
              ]
        for (const line of [
          `${label.gross} ${dollars(expected.grossCents)}`,
          `${label.fee(expected.percent)} ${dollars(expected.feeCents)}`,
          `${label.costs} ${dollars(expected.costsCents)}`,
          ...parts,
          `${label.withholding} ${dollars(expected.withholdingCents)}`,
          `${label.net} ${dollars(expected.netCents)}`,
        ]) {
          expect(text, `claim ${claimant.claimId}'s statement (${claimant.lang})`).toContain(line)
        }
        if (claimant.claimCostsCents === 0) expect(text).not.toContain(label.claimCosts)
      }
    }, 300_000)
  })
}
