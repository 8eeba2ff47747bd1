import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { withinSendHours } from '../../../server/journey/claimant-day.ts'
import type { SmsSettings } from '../../../server/journey/sms.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'

const DAY = 24 * 60 * 60 * 1000
const SITE = 'texts.test'
const TOKEN = 'stand-in-auth-token'

/** A local stand-in for Twilio's Messages API: it keeps what it was sent, and refuses when told to. */
async function startSmsStandIn() {
  const received: { path: string; auth: string | undefined; fields: Record<string, string> }[] = []
  let refuse = false
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        auth: req.headers.authorization,
        fields: Object.fromEntries(new URLSearchParams(body)),
      })
      res.writeHead(refuse ? 400 : 201, { 'Content-Type': 'application/json' }).end('{"sid":"SM1"}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    refuseNext: (value: boolean) => (refuse = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Twilio's webhook signature: HMAC-SHA1 of the URL and the sorted fields under the auth token. */
function signed(url: string, fields: Record<string, string>): string {
  const text = Object.keys(fields)
    .sort()
    .reduce((all, key) => all + key + fields[key], url)
  return crypto.createHmac('sha1', TOKEN).update(text).digest('base64')
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: text reminders (SMS_PROVIDER=twilio, against a local stand-in)`, () => {
    let ctx: TestContext
    let standIn: Awaited<ReturnType<typeof startSmsStandIn>>
    let seq = 0

    beforeAll(async () => {
      standIn = await startSmsStandIn()
      const sms: SmsSettings = {
        provider: 'twilio',
        accountSid: 'AC123',
        authToken: TOKEN,
        from: '+13105550100',
        apiUrl: standIn.url,
      }
      ctx = await createTestContext(dialect, { sms })
    })
    afterAll(async () => {
      await ctx?.close()
      await standIn?.close()
    })

    async function intakeDueAReminder(communicationsConsent: boolean) {
      seq += 1
      const phone = `(808) 555-${String(7000 + seq)}`
      const answer = await request(ctx.app)
        .post('/api/intake')
        .send(
          makeIntakeData({
            email: `texts${seq}@mail.test`,
            phone,
            cashAdvanceApps: ['chime'],
            communicationsConsent,
          }),
        )
        .expect(201)
      const intake = answer.body as CreatedIntake
      const start = Date.parse(intake.createdAt)
      await ctx.db
        .updateTable('claimant_journeys')
        .set({ mails_sent: 1, due_at: start + 2 * DAY })
        .where('intake_id', '=', intake.id)
        .execute()
      return {
        intake,
        phone,
        reminderAt: withinSendHours(start + 2 * DAY, 'Pacific/Honolulu', { from: 9, to: 20 }),
      }
    }

    const textsTo = (phone: string) =>
      standIn.received.filter(({ fields }) => fields.To === `+1${phone.replace(/\D/g, '')}`)

    it('texts the reminder to a claimant who ticked the communications consent, and no one else', async () => {
      const consented = await intakeDueAReminder(true)
      const declined = await intakeDueAReminder(false)
      await ctx.reminders.runDue(Math.max(consented.reminderAt, declined.reminderAt))
      const [text, ...more] = textsTo(consented.phone)
      expect(more).toEqual([])
      expect(text!.path).toBe('/2010-04-01/Accounts/AC123/Messages.json')
      expect(text!.auth).toBe(`Basic ${Buffer.from(`AC123:${TOKEN}`).toString('base64')}`)
      expect(text!.fields.From).toBe('+13105550100')
      expect(text!.fields.Body).toMatch(
        /^Cash Advance Claims Law Group: you told us you used Chime, but your claim is not filed yet\. File it here: http:\/\/\S+\/chime#prefill=p\.\d+\.chime\.\d+\.[0-9a-f]{24}\.[\w-]+ Reply STOP to stop texts\.$/,
      )
      expect(textsTo(declined.phone)).toEqual([])
    })

    it("pre-fills the Step 2 form once from a text's link, then answers as for an expired link; the e-mailed link stays reusable", async () => {
      const { intake, phone, reminderAt } = await intakeDueAReminder(true)
      await ctx.reminders.runDue(reminderAt)
      const [text] = textsTo(phone)
      const token = /#prefill=(\S+)/.exec(text!.fields.Body!)![1]!
      const prefill = (value: string) =>
        request(ctx.app).post('/api/journey/prefill').send({ token: value, app: 'chime' }).expect(200)
      const details = { firstName: 'Jane', lastName: 'Doe', email: `texts${seq}@mail.test`, phone }

      const first = await prefill(token)
      expect(first.body).toEqual(details)
      const again = await prefill(token)
      expect(again.body).toEqual({})
      expect(again.headers['cache-control']).toBe('no-store')
      expect(again.text).not.toContain('Jane')
      expect(again.text).not.toContain(phone)

      const emailed = intake.steps.find((step) => step.app === 'chime')!.path.split('#prefill=')[1]!
      expect((await prefill(emailed)).body).toEqual(details)
      expect((await prefill(emailed)).body).toEqual(details)
    })

    it("lets one of two simultaneous first uses of a text's link pre-fill, never both", async () => {
      const { intake } = await intakeDueAReminder(true)
      const token = ctx.journey.tokens.prefill({
        intakeId: intake.id,
        app: 'chime',
        expiresAt: Date.now() + DAY,
        singleUse: true,
      })
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          request(ctx.app).post('/api/journey/prefill').send({ token, app: 'chime' }).expect(200),
        ),
      )
      const filled = answers.filter((answer) => 'email' in (answer.body as object))
      expect(filled).toHaveLength(1)
      expect(answers.filter((answer) => Object.keys(answer.body as object).length === 0)).toHaveLength(5)
    })

    it('stops texting a phone that replied STOP through the signed webhook, and refuses an unsigned one', async () => {
      const { phone, reminderAt } = await intakeDueAReminder(true)
      const url = `http://${SITE}/api/journey/sms`
      const reply = { From: `+1${phone.replace(/\D/g, '')}`, Body: ' stop ', MessageSid: 'SM9' }
      // a forged reply changes nothing
      await request(ctx.app)
        .post('/api/journey/sms')
        .set({ Host: SITE, 'X-Twilio-Signature': 'forged' })
        .type('form')
        .send(reply)
        .expect(403)
      expect(await ctx.db.selectFrom('sms_suppressions').selectAll().execute()).toEqual([])
      const answer = await request(ctx.app)
        .post('/api/journey/sms')
        .set({ Host: SITE, 'X-Twilio-Signature': signed(url, reply) })
        .type('form')
        .send(reply)
        .expect(200)
      expect(answer.text).toContain('<Response></Response>')
      const stopped = await ctx.db.selectFrom('sms_suppressions').select('phone').execute()
      expect(stopped).toEqual([{ phone }])
      await ctx.reminders.runDue(reminderAt)
      expect(textsTo(phone)).toEqual([])
    })

    it('keeps the e-mail when the provider refuses the text', async () => {
      const { intake, phone, reminderAt } = await intakeDueAReminder(true)
      standIn.refuseNext(true)
      await ctx.reminders.runDue(reminderAt)
      standIn.refuseNext(false)
      expect(textsTo(phone)).toHaveLength(1)
      const journey = await ctx.db
        .selectFrom('claimant_journeys')
        .select('mails_sent')
        .where('intake_id', '=', intake.id)
        .executeTakeFirstOrThrow()
      // the reminder counts as sent: the e-mail went
      expect(Number(journey.mails_sent)).toBe(2)
    })
  })
  describe(`${dialect}: opt-outs under the public per-address limit`, () => {
    let ctx: TestContext
    const url = `http://${SITE}/api/journey/sms`

    beforeAll(async () => {
      const sms: SmsSettings = {
        provider: 'twilio',
        accountSid: 'AC123',
        authToken: TOKEN,
        from: '+13105550100',
        // nothing is sent in these tests
        apiUrl: 'http://127.0.0.1:9',
      }
      ctx = await createTestContext(dialect, {
        sms,
        publicLimits: { perAddress: 20, globalPerMinute: 1_000_000 },
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const reply = (fields: { From: string; Body: string; MessageSid: string }) =>
      request(ctx.app)
        .post('/api/journey/sms')
        .set({ Host: SITE, 'X-Twilio-Signature': signed(url, fields) })
        .type('form')
        .send(fields)
    const suppressed = async (phone: string) =>
      (await ctx.db.selectFrom('sms_suppressions').select('phone').where('phone', '=', phone).execute())
        .length === 1

    it('honours a thousand signed STOPs from one provider address, and a one-click unsubscribe after them', async () => {
      const BATCH = 50
      for (let first = 0; first < 1000; first += BATCH) {
        const answers = await Promise.all(
          Array.from({ length: BATCH }, (_, i) => {
            const n = String(first + i).padStart(4, '0')
            return reply({ From: `+1212555${n}`, Body: 'STOP', MessageSid: `SMwave${n}` })
          }),
        )
        expect(answers.map((answer) => answer.status)).toEqual(Array(BATCH).fill(200))
      }
      const count = await ctx.db
        .selectFrom('sms_suppressions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('phone', 'like', '(212) 555-%')
        .executeTakeFirstOrThrow()
      expect(Number(count.n)).toBe(1000)

      const answer = await request(ctx.app)
        .post('/api/intake')
        .send(
          makeIntakeData({ email: 'wave@mail.test', phone: '(808) 555-6000', cashAdvanceApps: ['chime'] }),
        )
        .expect(201)
      const intake = answer.body as CreatedIntake
      const token = ctx.journey.tokens.unsubscribe(intake.id)
      await request(ctx.app)
        .post(`/api/journey/unsubscribe?token=${token}`)
        .type('form')
        .send('List-Unsubscribe=One-Click')
        .expect(200)
      const unsubscribed = await ctx.db
        .selectFrom('email_suppressions')
        .select('email')
        .where('email', '=', 'wave@mail.test')
        .execute()
      expect(unsubscribed).toEqual([{ email: 'wave@mail.test' }])
      // a token the journey did not sign still counts against the address
      const forged = []
      for (let i = 0; i < 21; i += 1)
        forged.push(
          (
            await request(ctx.app)
              .post('/api/journey/unsubscribe')
              .send({ token: 'u.1.AAAAAAAAAAAAAAAAAAAAAA' })
          ).status,
        )
      expect(forged).toEqual([...Array(20).fill(200), 429])
    })

    it("drops a number's replies past its own limit without an error, still honours its STOP, and lets another number through", async () => {
      const From = '+18085556200'
      const phone = '(808) 555-6200'
      for (let n = 0; n < 30; n += 1)
        await reply({ From, Body: 'START', MessageSid: `SMflood${n}` }).expect(200)
      const past = await reply({ From, Body: 'START', MessageSid: 'SMflood30' }).expect(200)
      expect(past.text).toContain('<Response></Response>')
      const recorded = await ctx.db
        .selectFrom('sms_replies')
        .select('message_sid')
        .where('phone', '=', phone)
        .execute()
      expect(recorded).toHaveLength(30)
      // an opt-out is never lost to the limit; a START past it undoes nothing
      await reply({ From, Body: 'STOP', MessageSid: 'SMflood31' }).expect(200)
      expect(await suppressed(phone)).toBe(true)
      await reply({ From, Body: 'START', MessageSid: 'SMflood32' }).expect(200)
      expect(await suppressed(phone)).toBe(true)

      await reply({ From: '+18085556201', Body: 'STOP', MessageSid: 'SMother' }).expect(200)
      expect(await suppressed('(808) 555-6201')).toBe(true)
    })

    it('refuses an unsubscribe token replayed past its own limit, after its first use worked, while another token goes through', async () => {
      const intakeFor = async (email: string, phone: string) =>
        (
          await request(ctx.app)
            .post('/api/intake')
            .send(makeIntakeData({ email, phone, cashAdvanceApps: ['chime'] }))
            .expect(201)
        ).body as CreatedIntake
      const replayed = await intakeFor('replayed@mail.test', '(808) 555-6300')
      const other = await intakeFor('other@mail.test', '(808) 555-6301')
      const oneClick = (token: string) =>
        request(ctx.app)
          .post(`/api/journey/unsubscribe?token=${token}`)
          .type('form')
          .send('List-Unsubscribe=One-Click')
      const unsubscribed = async (email: string) =>
        (await ctx.db.selectFrom('email_suppressions').select('email').where('email', '=', email).execute())
          .length === 1

      const token = ctx.journey.tokens.unsubscribe(replayed.id)
      await oneClick(token).expect(200)
      expect(await unsubscribed('replayed@mail.test')).toBe(true)
      for (let n = 1; n < 30; n += 1) await oneClick(token).expect(200)
      const refused = await oneClick(token).expect(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect((refused.body as { error: { code: string } }).error.code).toBe('RATE_LIMITED')
      expect(await unsubscribed('replayed@mail.test')).toBe(true)

      await oneClick(ctx.journey.tokens.unsubscribe(other.id)).expect(200)
      expect(await unsubscribed('other@mail.test')).toBe(true)
    })

    it('honours each message id once: a replayed START does not undo a later STOP', async () => {
      const From = '+18085556100'
      const phone = '(808) 555-6100'
      await reply({ From, Body: 'STOP', MessageSid: 'SMreplay1' }).expect(200)
      await reply({ From, Body: 'START', MessageSid: 'SMreplay2' }).expect(200)
      expect(await suppressed(phone)).toBe(false)
      await reply({ From, Body: 'STOP', MessageSid: 'SMreplay3' }).expect(200)
      expect(await suppressed(phone)).toBe(true)
      await reply({ From, Body: 'START', MessageSid: 'SMreplay2' }).expect(200)
      expect(await suppressed(phone)).toBe(true)
    })
  })
}
