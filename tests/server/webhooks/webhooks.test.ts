import crypto from 'node:crypto'
import dgram from 'node:dgram'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import request from 'supertest'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CreatedWebhook, WebhookDeliveryList } from '../../../src/api/webhooks.ts'
import { readServerConfig } from '../../../server/config.ts'
import { issueConfirmationLink } from '../../../server/confirmations/confirmation-links.ts'
import { checkWebhookUrl, isPublicAddress, resolveHost } from '../../../server/webhooks/webhook-addresses.ts'
import { postWebhook } from '../../../server/webhooks/post-webhook.ts'
import { createTestContext, DIALECTS, makePng, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'
import { fileClaim } from '../support/claims.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

const SITE = '127.0.0.1'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const SCREENSHOT = makePng({ width: 30, height: 10 })
const ALL_EVENTS = ['intake.created', 'claim.created', 'claim.confirmed', 'claim.status_changed']
/** Each attempt's cut-off here: a hanging receiver costs the test this, not the product's 10 s. */
const TIMEOUT_MS = 300
const MINUTE = 60_000

interface Received {
  headers: http.IncomingHttpHeaders
  body: string
}

/** A receiver on 127.0.0.1 that keeps what it is sent and answers as `answer` says (200 by default). */
async function startReceiver() {
  const received: Received[] = []
  let answer: () => number | 'hang' = () => 200
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const status = answer()
      if (status !== 'hang') res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answerWith(next: () => number | 'hang') {
      answer = next
    },
    reset() {
      received.length = 0
      answer = () => 200
    },
    close() {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** The verification docs/webhooks.md gives, as a receiver writes it. */
function isSigned(secret: string, { headers, body }: Received): boolean {
  const timestamp = String(headers['webhook-timestamp'])
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  const given = String(headers['webhook-signature']).replace(/^v1=/, '')
  return given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
}

const bodyOf = (received: Received) =>
  JSON.parse(received.body) as { id: string; type: string; createdAt: string; data: Record<string, unknown> }

describe('webhook addresses with WEBHOOKS_ALLOW_PRIVATE off', () => {
  it.each([
    'http://127.0.0.1:8080/hooks',
    'http://localhost/hooks',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.10/',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
  ])('refuses %s with a 400 that says why', async (url) => {
    await expect(checkWebhookUrl(url, false)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/local or private address/),
    })
  })

  it.each([
    ['203.0.113.10', true],
    ['2606:4700::1', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['64:ff9b::8.8.8.8', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:a00:1', false],
    ['64:ff9b::10.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b:1::1', false],
    ['64:ff9b:1:ffff::808:808', false],
    ['2002:a00:1::1', false],
    ['2002:808:808::1', false],
    ['2002::', false],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', false],
    ['2001:4860:4860::8888', true],
    ['fd00::1', false],
    ['not an address', false],
  ])('takes %s as public: %s', (address, isPublic) => {
    expect(isPublicAddress(address)).toBe(isPublic)
  })

  it('gives up on a name server that never answers within the time it is given', async () => {
    const silent = dgram.createSocket('udp4')
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve))
    try {
      const started = Date.now()
      await expect(
        resolveHost('hooks.example.com', {
          timeoutMs: TIMEOUT_MS,
          servers: [`127.0.0.1:${silent.address().port}`],
        }),
      ).rejects.toThrow()
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 700)
    } finally {
      silent.close()
    }
  })

  it('refuses what is not an http(s) URL, or carries a password', async () => {
    await expect(checkWebhookUrl('ftp://203.0.113.10/x', false)).rejects.toMatchObject({ status: 400 })
    await expect(checkWebhookUrl('https://user:pw@203.0.113.10/', false)).rejects.toMatchObject({
      status: 400,
    })
    await expect(checkWebhookUrl('not a url', false)).rejects.toMatchObject({ status: 400 })
  })

  it('is the default: WEBHOOKS_ALLOW_PRIVATE is true or false, false when unset', () => {
    expect(readServerConfig({}).webhooksAllowPrivate).toBe(false)
    expect(readServerConfig({ WEBHOOKS_ALLOW_PRIVATE: 'true' }).webhooksAllowPrivate).toBe(true)
    expect(() => readServerConfig({ WEBHOOKS_ALLOW_PRIVATE: 'yes' })).toThrow(
      'WEBHOOKS_ALLOW_PRIVATE "yes" must be true or false (unset: false)',
    )
  })

  it('takes a public address', async () => {
    expect(await checkWebhookUrl(' https://203.0.113.10/hooks?token=1 ', false)).toBe(
      'https://203.0.113.10/hooks?token=1',
    )
  })

  it('checks the address again when it sends, so a name that now resolves to 127.0.0.1 reaches nothing', async () => {
    const receiver = await startReceiver()
    const url = receiver.url.replace('127.0.0.1', 'localhost')
    const post = (target: string) =>
      postWebhook({ url: target, body: '{}', headers: {}, timeoutMs: TIMEOUT_MS, allowPrivate: false })
    expect(await post(url)).toEqual({ error: expect.stringMatching(/local or private address/) })
    expect(await post(receiver.url)).toEqual({ error: '127.0.0.1 is a local or private address' })
    expect(receiver.received).toEqual([])
    await receiver.close()
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhook endpoints with WEBHOOKS_ALLOW_PRIVATE off`, () => {
    let ctx: TestContext
    let admin: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { webhooksAllowPrivate: false, webhookTimeoutMs: TIMEOUT_MS })
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const staff = (method: 'post' | 'patch', path: string) =>
      request(ctx.app)[method](path).set(SAME_SITE).set('Cookie', admin)

    it.each(['http://[64:ff9b:1::1]/', 'http://[2002:a00:1::1]/'])(
      'refuses %s, an address that leads to a private network',
      async (url) => {
        const res = await staff('post', '/api/staff/webhooks').send({ url, events: ALL_EVENTS }).expect(400)
        expect(res.body.error.message).toMatch(/a local or private address/)
        expect(await ctx.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([])
      },
    )

    it("sends the claimant's details only to an https:// URL", async () => {
      const refused = await staff('post', '/api/staff/webhooks')
        .send({ url: 'http://203.0.113.10/hooks', events: ALL_EVENTS, includeDetails: true })
        .expect(400)
      expect(refused.body.error.message).toMatch(/details are sent only to an https:\/\/ URL/)

      const plain = await staff('post', '/api/staff/webhooks')
        .send({ url: 'http://203.0.113.10/hooks', events: ALL_EVENTS })
        .expect(201)
      const id = (plain.body as CreatedWebhook).endpoint.id
      const ticked = await staff('patch', `/api/staff/webhooks/${id}`)
        .send({ includeDetails: true })
        .expect(400)
      expect(ticked.body.error.message).toMatch(/details are sent only to an https:\/\/ URL/)

      const secure = await staff('post', '/api/staff/webhooks')
        .send({ url: 'https://203.0.113.10/hooks', events: ALL_EVENTS, includeDetails: true })
        .expect(201)
      expect((secure.body as CreatedWebhook).endpoint.includeDetails).toBe(true)
      expect(
        (await ctx.db.selectFrom('webhook_endpoints').select('include_details').orderBy('id').execute()).map(
          (row) => row.include_details,
        ),
      ).toEqual([0, 1])
    })
  })

  describe(`${dialect}: webhooks`, () => {
    let ctx: TestContext
    let admin: string
    let receiver: Awaited<ReturnType<typeof startReceiver>>
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { webhooksAllowPrivate: true, webhookTimeoutMs: TIMEOUT_MS })
      admin = await loginStaff(ctx.app, { site: SITE })
      receiver = await startReceiver()
    })
    afterAll(async () => {
      await receiver?.close()
      await ctx?.close()
    })
    beforeEach(() => receiver.reset())
    afterEach(async () => {
      await ctx.db.deleteFrom('webhook_deliveries').execute()
      for (const { id } of await ctx.db.selectFrom('webhook_endpoints').select('id').execute()) {
        await staff('delete', `/api/staff/webhooks/${id}`).expect(204)
      }
    })

    const staff = (method: 'get' | 'post' | 'patch' | 'delete', path: string, cookie = admin) =>
      request(ctx.app)[method](path).set(SAME_SITE).set('Cookie', cookie)

    async function addEndpoint(body: Record<string, unknown> = {}): Promise<CreatedWebhook> {
      const res = await staff('post', '/api/staff/webhooks')
        .send({ url: receiver.url, events: ALL_EVENTS, ...body })
        .expect(201)
      return res.body as CreatedWebhook
    }

    async function fileNextClaim(): Promise<number> {
      seq += 1
      const fields = { email: `hook${seq}@example.com`, phoneNumber: `(212) 555-${3000 + seq}` }
      return (await fileClaim(ctx, { app: 'brigit', fields, screenshot: SCREENSHOT })).id
    }

    /** Waits for the events queued after a request's answer (they do not hold the answer up). */
    async function queued(count: number): Promise<void> {
      for (let waited = 0; waited < 5_000; waited += 10) {
        const rows = await ctx.db.selectFrom('webhook_deliveries').select('id').execute()
        if (rows.length >= count) return
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error(`fewer than ${count} deliveries were queued`)
    }

    const deliveriesOf = async (endpointId: number) =>
      (
        (await staff('get', `/api/staff/webhooks/${endpointId}/deliveries`).expect(200))
          .body as WebhookDeliveryList
      ).deliveries

    it('delivers each event once, signed with the secret shown once, without claimant details', async () => {
      const { endpoint, secret } = await addEndpoint()
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
      const list = await staff('get', '/api/staff/webhooks').expect(200)
      expect(list.body.endpoints).toEqual([endpoint])
      expect(JSON.stringify(list.body)).not.toContain(secret)

      seq += 1
      const intake = await request(ctx.app)
        .post('/api/intake')
        .send(makeIntakeData({ email: `intake${seq}@example.com`, phone: `(808) 555-${4000 + seq}` }))
        .expect(201)
      const claimId = await fileNextClaim()
      await queued(2)
      const link = await issueConfirmationLink(ctx.db, {
        target: { of: 'claim', id: claimId },
        origin: `http://${SITE}`,
        locale: 'en',
      })
      await request(ctx.app)
        .post('/api/confirmations')
        .set(SAME_SITE)
        .send({ token: link.split('#token=')[1] })
        .expect(200)
      await staff('post', `/api/staff/claims/${claimId}/moves`)
        .send({ to: 'in_review', version: 0 })
        .expect(200)

      await ctx.webhooks.runDue()
      await ctx.webhooks.runDue()
      const bodies = receiver.received.map(bodyOf)
      expect(bodies.map((body) => body.type).sort()).toEqual([...ALL_EVENTS].sort())
      const byType = Object.fromEntries(bodies.map((body) => [body.type, body]))
      expect(byType['intake.created']!.data).toEqual({ intakeId: intake.body.id, apps: ['earnin', 'chime'] })
      expect(byType['claim.created']!.data).toEqual({ claimId, app: 'brigit', status: 'received' })
      expect(byType['claim.confirmed']!.data).toEqual({ claimId, app: 'brigit', status: 'received' })
      expect(byType['claim.status_changed']!.data).toEqual({
        claimId,
        app: 'brigit',
        status: 'in_review',
        from: 'received',
        to: 'in_review',
      })
      for (const received of receiver.received) {
        expect(isSigned(secret, received)).toBe(true)
        expect(received.headers['webhook-id']).toBe(bodyOf(received).id)
        expect(Number(received.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2)
        expect(received.headers['content-type']).toBe('application/json')
      }
      expect(isSigned(`${secret}x`, receiver.received[0]!)).toBe(false)
      expect((await deliveriesOf(endpoint.id)).map(({ status, attempts }) => ({ status, attempts }))).toEqual(
        ALL_EVENTS.map(() => ({ status: 'delivered', attempts: 1 })),
      )
    })

    it("adds the claimant's name, e-mail and phone only when ticked", async () => {
      const { endpoint } = await addEndpoint({ events: ['claim.created'], includeDetails: true })
      const claimId = await fileNextClaim()
      await queued(1)
      await ctx.webhooks.runDue()
      expect(bodyOf(receiver.received[0]!).data).toEqual({
        claimId,
        app: 'brigit',
        status: 'received',
        firstName: expect.any(String),
        lastName: expect.any(String),
        email: `hook${seq}@example.com`,
        phone: `(212) 555-${3000 + seq}`,
      })

      const changed = await staff('patch', `/api/staff/webhooks/${endpoint.id}`)
        .send({ includeDetails: false })
        .expect(200)
      expect(changed.body.includeDetails).toBe(false)
      await fileNextClaim()
      await queued(2)
      await ctx.webhooks.runDue()
      expect(Object.keys(bodyOf(receiver.received[1]!).data).sort()).toEqual(['app', 'claimId', 'status'])
    })

    it('retries a receiver that answered 500, with back-off, and keeps the same Webhook-Id', async () => {
      const { endpoint, secret } = await addEndpoint({ events: ['claim.created'] })
      const answers = [500, 200]
      receiver.answerWith(() => answers.shift() ?? 200)
      await fileNextClaim()
      await queued(1)
      const now = Date.now()
      await ctx.webhooks.runDue(now)
      const [failed] = await deliveriesOf(endpoint.id)
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 500 })
      expect(Date.parse(failed!.nextAttemptAt!)).toBe(now + MINUTE)

      await ctx.webhooks.runDue(now + 30_000)
      expect(receiver.received).toHaveLength(1)
      await ctx.webhooks.runDue(now + MINUTE)
      expect(receiver.received).toHaveLength(2)
      expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id'])
      expect(isSigned(secret, receiver.received[1]!)).toBe(true)
      expect(await deliveriesOf(endpoint.id)).toMatchObject([
        { status: 'delivered', attempts: 2, lastStatusCode: 200, lastError: null, nextAttemptAt: null },
      ])
    })

    it('cuts off a receiver that hangs, fails the delivery after a day, and sends it again on request', async () => {
      const { endpoint } = await addEndpoint({ events: ['claim.created'] })
      receiver.answerWith(() => 'hang')
      await fileNextClaim()
      await queued(1)
      const start = Date.now()
      await ctx.webhooks.runDue(start)
      expect(await deliveriesOf(endpoint.id)).toMatchObject([
        { status: 'pending', attempts: 1, lastStatusCode: null, lastError: 'no answer within 0.3 s' },
      ])

      receiver.answerWith(() => 503)
      // 1 min, 5 min, 30 min, 2 h, 6 h and 12 h after each failure: the next would be past the day
      let at = start
      for (const wait of [1, 5, 30, 120, 360, 720]) {
        at += wait * MINUTE
        await ctx.webhooks.runDue(at)
      }
      const [failed] = await deliveriesOf(endpoint.id)
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: 7,
        lastStatusCode: 503,
        nextAttemptAt: null,
      })
      expect(receiver.received).toHaveLength(7)

      receiver.answerWith(() => 204)
      const again = await staff(
        'post',
        `/api/staff/webhooks/${endpoint.id}/deliveries/${failed!.id}/send-again`,
      ).expect(200)
      expect(again.body).toMatchObject({ status: 'pending', attempts: 0 })
      await ctx.webhooks.runDue()
      expect(await deliveriesOf(endpoint.id)).toMatchObject([{ status: 'delivered', attempts: 1 }])
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('action', 'like', 'webhook_%')
        .orderBy('id')
        .execute()
      expect(audit.slice(-2)).toEqual([
        { action: 'webhook_created', detail: `webhook ${endpoint.id} ${receiver.url} (claim.created)` },
        {
          action: 'webhook_sent_again',
          detail: `delivery ${failed!.id} (claim.created, event ${failed!.eventId}) to webhook ${endpoint.id} ${receiver.url} (claim.created)`,
        },
      ])
    })

    it('queues nothing for a paused endpoint, and deleting it removes its log', async () => {
      const { endpoint } = await addEndpoint({ events: ['claim.created'] })
      await staff('patch', `/api/staff/webhooks/${endpoint.id}`).send({ isActive: false }).expect(200)
      await fileNextClaim()
      await staff('patch', `/api/staff/webhooks/${endpoint.id}`).send({ isActive: true }).expect(200)
      const resumed = await fileNextClaim()
      await queued(1)
      // the claim filed while it was paused was never queued
      expect((await deliveriesOf(endpoint.id)).map(({ type }) => type)).toEqual(['claim.created'])
      expect(
        (await ctx.db.selectFrom('webhook_deliveries').select('data').execute()).map(
          (row) => (JSON.parse(row.data) as { claimId: number }).claimId,
        ),
      ).toEqual([resumed])
      await staff('delete', `/api/staff/webhooks/${endpoint.id}`).expect(204)
      expect(await ctx.db.selectFrom('webhook_deliveries').selectAll().execute()).toEqual([])
      await staff('get', `/api/staff/webhooks/${endpoint.id}/deliveries`).expect(404)
      const actions = await ctx.db
        .selectFrom('audit_log')
        .select('action')
        .where('detail', 'like', `webhook ${endpoint.id} %`)
        .orderBy('id')
        .execute()
      expect(actions.map(({ action }) => action)).toEqual([
        'webhook_created',
        'webhook_changed',
        'webhook_changed',
        'webhook_deleted',
      ])
    })

    it('refuses an endpoint without events, or an unknown one', async () => {
      const none = await staff('post', '/api/staff/webhooks')
        .send({ url: receiver.url, events: [] })
        .expect(400)
      expect(none.body.error.message).toMatch(/"events" must list one or more/)
      const unknown = await staff('post', '/api/staff/webhooks')
        .send({ url: receiver.url, events: ['claim.deleted'] })
        .expect(400)
      expect(unknown.body.error.message).toBe(
        'unknown event "claim.deleted": use intake.created, claim.created, claim.confirmed, claim.status_changed',
      )
    })

    it('answers 403 to a staff account that is not an admin', async () => {
      seq += 1
      const email = `webhook-staff${seq}@firm.test`
      const cookie = await signInNewAccount(ctx, SITE, {
        email,
        name: 'Pat Paralegal',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: true }],
        password: 'paralegal password 1',
      })
      await staff('get', '/api/staff/webhooks', cookie).expect(403)
      await staff('post', '/api/staff/webhooks', cookie)
        .send({ url: receiver.url, events: ALL_EVENTS })
        .expect(403)
      expect(await ctx.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([])
    })
  })
}
