import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { BOT_REFUSED_MESSAGE, type FormSignals } from '../../../src/form-signals.ts'
import { fraudStanding, type FraudReason } from '../../../src/fraud-config.ts'
import { loadFraudConfigs } from '../../../server/fraud/load-fraud-config.ts'
import { FormConfigError, loadFormConfigs } from '../../../server/forms/load-form-configs.ts'
import { makeClaimData, makePng } from '../support/claim-fixtures.ts'
import { sendClaimAsForm, sendIntakeAsForm } from '../support/client-requests.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { RING_NAMES } from '../support/fraud-claims.ts'
import os from 'node:os'
import { clearClaims, createTestContext, DIALECTS, FORMS_DIR, type TestContext } from '../support/helpers.ts'

/** A phone screenshot's shape (390 × 844 points at 1×), so no test here deducts for the picture's size. */
const PHONE_SCREENSHOT = { content: makePng({ width: 390, height: 844 }), name: 'statement.png' }
const today = () => new Date().toISOString().slice(0, 10)
/** A device id as the browser's storage keeps it. */
const deviceId = (n: number) => `device-${String(n).padStart(16, '0')}`

let seq = 0
/** A person the tests have not used: names, e-mail and phone of their own. */
function person(first: string, last: string) {
  seq += 1
  return {
    firstName: first,
    lastName: last,
    email: `${first}.${last}.${seq}@mail.test`.toLowerCase(),
    phoneNumber: `(602) 7${String(seq).padStart(2, '0')}-${String(1000 + seq).slice(-4)}`,
  }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: fraud scores`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    /** A Step 2 claim sent as the form sends it, from `address`, with the form's signals. */
    async function claim(
      who: ReturnType<typeof person>,
      {
        signals,
        address,
        app = 'brigit',
        journeyToken,
      }: {
        signals?: FormSignals
        address: string
        app?: string
        journeyToken?: string
      },
    ): Promise<number> {
      const res = await sendClaimAsForm(
        ctx.app,
        {
          slug: app,
          data: makeClaimData(who),
          agreementDate: today(),
          signing: { method: 'drawn' },
          locale: 'en',
          journeyToken,
          signals,
        },
        PHONE_SCREENSHOT,
      ).set('X-Forwarded-For', address)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      return Number(res.body.id)
    }

    /** Scores what is due until nothing is (a ring's earlier claims are scored again as it grows). */
    async function scoreAll(): Promise<void> {
      for (let round = 0; round < 5; round++) await ctx.fraudScores.runDue()
    }

    async function scoreOf(
      claimId: number,
    ): Promise<{ score: number; codes: string[]; reasons: FraudReason[] }> {
      const row = await ctx.db
        .selectFrom('claims')
        .innerJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
        .select(['claims.fraud_score', 'fraud_scores.reasons'])
        .where('claims.id', '=', claimId)
        .executeTakeFirstOrThrow()
      const reasons = JSON.parse(row.reasons ?? '[]') as FraudReason[]
      return { score: Number(row.fraud_score), codes: reasons.map((r) => r.code).sort(), reasons }
    }

    it('holds each of ten claimants filing from one device under different names, naming the others', async () => {
      const ring: number[] = []
      for (let i = 0; i < 10; i++) {
        ring.push(
          await claim(person(RING_NAMES[i]![0], RING_NAMES[i]![1]), {
            signals: { device: deviceId(1), elapsedMs: 95_000, pasted: [], typed: ['firstName', 'email'] },
            address: `198.51.${100 + i}.7`,
          }),
        )
      }
      await scoreAll()
      const config = ctx.fraud('brigit')
      for (const id of ring) {
        const { score, codes, reasons } = await scoreOf(id)
        expect(codes, `claim ${id}`).toContain('device_shared')
        expect(fraudStanding(config, score), `claim ${id} scores ${score}`).toBe('hold')
        const shared = reasons.find((r) => r.code === 'device_shared')!
        expect(shared.text).toBe('This browser also sent claims under 9 other names.')
        expect(new Set(shared.related)).toEqual(new Set(ring.filter((other) => other !== id)))
      }
    })

    it('does not hold a household: two people at one address, each on their own phone, one claim each', async () => {
      const ids: number[] = []
      for (const [first, n] of [
        ['Maria', 2],
        ['Daniel', 3],
      ] as const) {
        const who = person(first, 'Lopez')
        const intake = await sendIntakeAsForm(ctx.app, {
          data: makeIntakeData({
            firstName: who.firstName,
            lastName: who.lastName,
            email: who.email,
            phone: who.phoneNumber.replace(/\D/g, ''),
            address: '40 West Olive Street',
            addressLine2: '',
            zipCode: '85003',
            state: 'AZ',
            city: 'Phoenix',
            cashAdvanceApps: ['earnin'],
          }),
          agreementDate: today(),
          signing: { method: 'drawn' },
          locale: 'en',
          signals: { device: deviceId(n), elapsedMs: 240_000, pasted: [], typed: ['firstName'] },
        }).set('X-Forwarded-For', '203.0.113.40')
        expect(intake.status, JSON.stringify(intake.body)).toBe(201)
        const token = (intake.body as CreatedIntake).steps[0]!.path.split('#prefill=')[1]
        ids.push(
          await claim(who, {
            signals: { device: deviceId(n), elapsedMs: 80_000, pasted: [], typed: ['firstName'] },
            address: '203.0.113.40',
            app: 'earnin',
            journeyToken: token,
          }),
        )
      }
      await scoreAll()
      for (const id of ids) {
        const { score, codes } = await scoreOf(id)
        expect(codes, `claim ${id}`).toEqual([])
        expect(fraudStanding(ctx.fraud('earnin'), score)).toBe('clear')
      }
    })

    it('deducts for a bot’s speed, every field pasted and a throw-away e-mail, each with its reason', async () => {
      const id = await claim(
        { ...person('Quick', 'Paster'), email: `quick.${seq}@mailinator.com` },
        {
          signals: {
            device: deviceId(9),
            elapsedMs: 4_200,
            pasted: ['firstName', 'email'],
            typed: ['firstName', 'email'],
          },
          address: '192.0.2.99',
        },
      )
      await scoreAll()
      const { score, codes, reasons } = await scoreOf(id)
      expect(codes).toEqual(['all_pasted', 'email_disposable', 'too_fast'])
      expect(score).toBe(1000 - 200 - 200 - 300)
      expect(reasons.find((r) => r.code === 'too_fast')!.text).toBe(
        'The form was sent 4.2 s after it appeared.',
      )
    })

    it('refuses a form whose hidden field a program filled, and stores nothing', async () => {
      const res = await sendClaimAsForm(
        ctx.app,
        {
          slug: 'brigit',
          data: makeClaimData(person('Bot', 'Filler')),
          agreementDate: today(),
          signing: { method: 'drawn' },
          locale: 'en',
          signals: { trap: 'https://spam.example' },
        },
        PHONE_SCREENSHOT,
      )
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'BOT_SUSPECTED', message: BOT_REFUSED_MESSAGE })
      const claims = await ctx.db.selectFrom('claims').select('id').execute()
      expect(claims).toEqual([])
      const folder = path.join(ctx.dataDir, 'brigit-screenshots')
      expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([])
    })

    it('refuses signals that are not a JSON object, naming the field', async () => {
      const res = await sendClaimAsForm(
        ctx.app,
        {
          slug: 'brigit',
          data: makeClaimData(person('Odd', 'Signals')),
          agreementDate: today(),
          signing: { method: 'drawn' },
          locale: 'en',
        },
        PHONE_SCREENSHOT,
      ).field('signals', '[1,2]')
      expect(res.status).toBe(400)
      expect(res.body.error.message).toMatch(/^"signals" must be a JSON object/)
    })
  })
}

describe('fraud.json', () => {
  it('stops the server with every problem named when the hold is not below the review threshold', () => {
    const formsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fraud-forms-'))
    fs.cpSync(FORMS_DIR, formsDir, { recursive: true })
    const file = path.join(formsDir, 'base', 'fraud.json')
    const config = JSON.parse(fs.readFileSync(file, 'utf8')) as { thresholds: { hold: number } }
    config.thresholds.hold = 900
    fs.writeFileSync(file, JSON.stringify(config))
    expect(() => loadFraudConfigs(formsDir, [])).toThrow(FormConfigError)
    expect(() => loadFraudConfigs(formsDir, [])).toThrow(
      /thresholds: hold \(900\) must be below review \(800\)/,
    )
    fs.rmSync(formsDir, { recursive: true, force: true })
  })

  it('lays an app\'s own fraud settings (under "fraud" in its file) over the base, as the server loads them', () => {
    const formsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fraud-forms-'))
    fs.cpSync(FORMS_DIR, formsDir, { recursive: true })
    const file = path.join(formsDir, 'brigit.json')
    const app = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
    app.fraud = { thresholds: { hold: 550 }, tests: { network_shared: { weight: 0 } } }
    fs.writeFileSync(file, JSON.stringify(app))
    const fraud = loadFraudConfigs(formsDir, loadFormConfigs(formsDir).keys())
    expect(fraud('brigit').thresholds).toEqual({ review: 800, hold: 550 })
    expect(fraud('brigit').tests.network_shared).toMatchObject({ weight: 0, atLeast: 4 })
    expect(fraud('brigit').tests.device_shared.weight).toBe(400)
    expect(fraud('chime').thresholds).toEqual({ review: 800, hold: 600 })
    fs.rmSync(formsDir, { recursive: true, force: true })
  })
})
