import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../src/api/claims.ts'
import { withinSendHours } from '../../server/journey/claimant-day.ts'
import type { SmsSettings } from '../../server/journey/sms.ts'
import { makeIntakeData } from './malformed-intakes.ts'
import { createTestContext, DIALECTS, type TestContext } from './helpers.ts'

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
        .set({ mails_sent: 1, next_due_at: start + 2 * DAY })
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
      await ctx.journey.runDue(Math.max(consented.reminderAt, declined.reminderAt))
      const [text, ...more] = textsTo(consented.phone)
      expect(more).toEqual([])
      expect(text!.path).toBe('/2010-04-01/Accounts/AC123/Messages.json')
      expect(text!.auth).toBe(`Basic ${Buffer.from(`AC123:${TOKEN}`).toString('base64')}`)
      expect(text!.fields.From).toBe('+13105550100')
      expect(text!.fields.Body).toMatch(
        /^Cash Advance Claims Law Group: you told us you used Chime, but your claim is not filed yet\. File it here: http:\/\/\S+\/chime#prefill=p\.\d+\.chime\.\d+\.[\w-]+ Reply STOP to stop texts\.$/,
      )
      expect(textsTo(declined.phone)).toEqual([])
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
      await ctx.journey.runDue(reminderAt)
      expect(textsTo(phone)).toEqual([])
    })

    it('keeps the e-mail when the provider refuses the text', async () => {
      const { intake, phone, reminderAt } = await intakeDueAReminder(true)
      standIn.refuseNext(true)
      await ctx.journey.runDue(reminderAt)
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
}
