import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { BOT_REFUSED_MESSAGE, type FormSignals } from '../../../src/form-signals.ts'
import type { Locale } from '../../../src/translate.ts'
import { sendClaimAsForm, sendIntakeAsForm } from '../support/client-requests.ts'
import { createTestContext, DIALECTS, makeClaimData, type TestContext } from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

const today = () => new Date().toISOString().slice(0, 10)
/** A device id as the browser keeps it: 16 random bytes in base64url. */
const DEVICE = 'q3Vb0mXh1e_Zt9LkQp2W-A'
/** What the Step 2 form and the main form send after a person typed their answers and pasted one. */
const SENT: FormSignals = {
  device: DEVICE,
  elapsedMs: 48_213,
  pasted: ['email'],
  typed: ['firstName', 'lastName', 'email', 'phoneNumber'],
}
/** The same, as a tampered client sends it: keys the server does not know, a device id of no browser. */
const TAMPERED = { ...SENT, device: 'abc', screen: '390x844', fingerprint: 'f00d' } as FormSignals
const { device: _device, ...SENT_WITHOUT_DEVICE } = SENT

let seq = 0
function contact() {
  seq += 1
  return { email: `signals${seq}@mail.test`, phone: `(808) 555-03${String(seq).padStart(2, '0')}` }
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the form's signals, as the forms send them`, () => {
    let ctx: TestContext
    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function fileClaim(signals: FormSignals): Promise<FormSignals> {
      const { email, phone } = contact()
      const res = await sendClaimAsForm(ctx.app, {
        slug: 'brigit',
        data: makeClaimData({ email, phoneNumber: phone }),
        agreementDate: today(),
        signing: { method: 'drawn' },
        locale: 'en',
        signals,
      })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      const row = await ctx.db
        .selectFrom('claims')
        .select('signals')
        .where('id', '=', Number(res.body.id))
        .executeTakeFirstOrThrow()
      return JSON.parse(row.signals ?? 'null') as FormSignals
    }

    function sendIntake(signals: FormSignals, locale: Locale = 'en') {
      const { email, phone } = contact()
      return sendIntakeAsForm(ctx.app, {
        data: makeIntakeData({ email, phone }),
        agreementDate: today(),
        signing: { method: 'typed', typedName: 'Jane Doe' },
        locale,
        signals,
      })
    }

    async function fileIntake(signals: FormSignals): Promise<FormSignals> {
      const res = await sendIntake(signals)
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      const row = await ctx.db
        .selectFrom('form_submissions')
        .select('signals')
        .where('id', '=', (res.body as CreatedIntake).id)
        .executeTakeFirstOrThrow()
      return JSON.parse(row.signals ?? 'null') as FormSignals
    }

    async function countIntakes(): Promise<number> {
      const { count } = await ctx.db
        .selectFrom('form_submissions')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
        .executeTakeFirstOrThrow()
      return Number(count)
    }

    it('stores a Step 2 claim’s signals as its form sent them', async () => {
      expect(await fileClaim(SENT)).toEqual(SENT)
    })

    it('stores a Step 2 claim’s signals without the keys it does not know and a device id of no browser', async () => {
      expect(await fileClaim(TAMPERED)).toEqual(SENT_WITHOUT_DEVICE)
    })

    it('stores an intake’s signals as the main form sent them', async () => {
      expect(await fileIntake(SENT)).toEqual(SENT)
    })

    it('stores an intake’s signals without the keys it does not know and a device id of no browser', async () => {
      expect(await fileIntake(TAMPERED)).toEqual(SENT_WITHOUT_DEVICE)
    })

    it('refuses an intake whose hidden field a program filled, with the bot message, and stores nothing', async () => {
      const before = await countIntakes()
      const res = await sendIntake({ ...SENT, trap: 'https://cheap-pills.example' })
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({ code: 'BOT_SUSPECTED', message: BOT_REFUSED_MESSAGE })
      expect(await countIntakes()).toBe(before)
    })

    it('says so in Spanish to a Spanish page', async () => {
      const before = await countIntakes()
      const res = await sendIntake({ ...SENT, trap: 'https://cheap-pills.example' }, 'es')
      expect(res.status).toBe(400)
      expect(res.body.error).toEqual({
        code: 'BOT_SUSPECTED',
        message:
          'Este formulario lo completó un programa, no una persona. Si usted es una persona, vuelva a cargar la página e inténtelo de nuevo.',
      })
      expect(await countIntakes()).toBe(before)
    })
  })
}
