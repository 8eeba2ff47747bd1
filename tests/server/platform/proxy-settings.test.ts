import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOOKUP_RATE_LIMITED_MESSAGE } from '../../../src/lookup-messages.ts'
import { readServerConfig } from '../../../server/config.ts'
import { hitRateLimit } from '../../../server/rate-limit.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestContext,
  readFixture,
  TEST_PUBLIC_LIMITS,
  type TestContext,
} from '../support/helpers.ts'
import { postClaim } from '../support/claims.ts'

const SCREENSHOT = readFixture('bank-statement.png')
const PUBLIC_URL = 'https://claims.example-firm.com'

function sendClaimFrom(ctx: TestContext, headers: Record<string, string>, phoneNumber: string) {
  const fields = { phoneNumber, email: `c${phoneNumber.slice(-4)}@example.com` }
  return postClaim(ctx.app, { app: 'brigit', fields, headers, screenshot: SCREENSHOT })
}

function lookup(ctx: TestContext, forwardedFor: string) {
  return request(ctx.app)
    .post('/api/agreements/lookup')
    .set('X-Forwarded-For', forwardedFor)
    .send({ email: 'nobody@example.com', phone: '(555) 223-9999' })
}

describe('settings read at start-up', () => {
  it('takes TRUST_PROXY as hops, or addresses, CIDRs and named ranges; loopback when unset', () => {
    expect(readServerConfig({}).trustProxy).toEqual(['loopback'])
    expect(readServerConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(
      readServerConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,fd00::/8,uniquelocal' }).trustProxy,
    ).toEqual(['10.0.0.0/8', '192.168.1.5', 'fd00::/8', 'uniquelocal'])
  })

  it.each(['true', 'everyone', '10.0.0.0/33', '10.0.0.1/8/2', '300.1.1.1', '-1'])(
    'stops on TRUST_PROXY "%s", naming the setting',
    (value) => {
      expect(() => readServerConfig({ TRUST_PROXY: value })).toThrow(/^TRUST_PROXY ".*" is not understood/)
    },
  )

  it('takes PUBLIC_URL as an origin only', () => {
    expect(readServerConfig({ PUBLIC_URL: `${PUBLIC_URL}/` }).publicUrl).toBe(PUBLIC_URL)
    expect(readServerConfig({ PUBLIC_URL: 'http://localhost:8080' }).publicUrl).toBe('http://localhost:8080')
    for (const bad of [
      'claims.example-firm.com',
      'ftp://example.com',
      `${PUBLIC_URL}/claims`,
      `${PUBLIC_URL}?a=1`,
    ]) {
      expect(() => readServerConfig({ PUBLIC_URL: bad })).toThrow(/^PUBLIC_URL ".*" is not an origin/)
    }
  })

  it('takes TSA_URL as an http(s) URL, none when unset, and refuses anything else by name', () => {
    expect(readServerConfig({}).tsaUrl).toBeUndefined()
    expect(readServerConfig({ TSA_URL: ' https://tsa.example.com/tsr ' }).tsaUrl).toBe(
      'https://tsa.example.com/tsr',
    )
    expect(readServerConfig({ TSA_URL: 'http://127.0.0.1:3180' }).tsaUrl).toBe('http://127.0.0.1:3180')
    for (const bad of ['tsa.example.com/tsr', 'ftp://tsa.example.com', 'file:///tmp/tsr']) {
      expect(() => readServerConfig({ TSA_URL: bad })).toThrow(`TSA_URL "${bad}" is not an http(s) URL`)
    }
  })

  it('stops on a HOST other machines reach without PUBLIC_URL, which e-mailed links are built from', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.11', 'claims.internal', '']) {
      expect(() => readServerConfig({ HOST: host })).toThrow(
        /^PUBLIC_URL must be set when HOST ".*" lets other machines connect/,
      )
      expect(readServerConfig({ HOST: host, PUBLIC_URL }).host).toBe(host)
    }
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
      expect(readServerConfig({ HOST: host }).host).toBe(host)
    }
    expect(readServerConfig({}).host).toBe('127.0.0.1')
  })

  it('wants S3 credentials with S3_BUCKET, and a URL for S3_ENDPOINT', () => {
    expect(() => readServerConfig({ S3_BUCKET: 'screenshots' })).toThrow(
      /^S3_BUCKET is set but S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are not/,
    )
    const keys = { S3_BUCKET: 'screenshots', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }
    expect(() => readServerConfig({ ...keys, S3_ENDPOINT: 'minio:9000' })).toThrow(
      /^S3_ENDPOINT "minio:9000" is not a URL/,
    )
    expect(() => readServerConfig({ ...keys, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/^S3_FORCE_PATH_STYLE/)
    expect(
      readServerConfig({ ...keys, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' }).s3,
    ).toEqual({
      bucket: 'screenshots',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    })
    expect(readServerConfig({}).s3).toBeUndefined()
  })
})

// lookups per address and 15 minutes (PUBLIC_LIMIT_PER_ADDRESS)
const LOOKUP_LIMIT = { name: 'agreement-lookup', limit: 10, windowMs: 15 * 60 * 1000, message: '' }

describe('behind one proxy that appends to X-Forwarded-For (TRUST_PROXY=1)', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', {
      trustProxy: 1,
      publicLimits: { ...TEST_PUBLIC_LIMITS, perAddress: LOOKUP_LIMIT.limit },
    })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it('keeps the address the proxy saw in the signed record, not one the client wrote', async () => {
    // the client sent "X-Forwarded-For: 6.6.6.6"; the proxy appended the address it was connected from
    const res = await sendClaimFrom(
      ctx,
      { 'X-Forwarded-For': '6.6.6.6, 203.0.113.9' },
      '(555) 223-0001',
    ).expect(201)
    const record = await ctx.db
      .selectFrom('agreement_records')
      .select('ip_address')
      .where('claim_id', '=', res.body.id)
      .executeTakeFirstOrThrow()
    expect(record.ip_address).toBe('203.0.113.9')
  })

  it('counts lookups per client: one client reaching the limit leaves the next one free', async () => {
    for (let i = 0; i < LOOKUP_LIMIT.limit; i++) await lookup(ctx, `6.6.6.${i}, 203.0.113.20`).expect(202)
    const limited = await lookup(ctx, '7.7.7.7, 203.0.113.20').expect(429)
    expect(limited.body.error).toEqual({ code: 'RATE_LIMITED', message: LOOKUP_RATE_LIMITED_MESSAGE })
    await lookup(ctx, '203.0.113.21').expect(202)
  })

  it('counts an IPv6 client by its /64', async () => {
    for (let i = 1; i <= LOOKUP_LIMIT.limit; i++)
      await lookup(ctx, `2001:db8:aa:bb::${i.toString(16)}`).expect(202)
    await lookup(ctx, '2001:db8:aa:bb:ffff:1:2:3').expect(429)
    await lookup(ctx, '2001:db8:aa:bc::1').expect(202)
  })

  it('removes the rows of windows that have ended', async () => {
    const count = async () =>
      Number(
        (
          await ctx.db
            .selectFrom('rate_limits')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('key', 'like', 'agreement-lookup:%')
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await count()).toBeGreaterThan(1)
    const later = Date.now() + LOOKUP_LIMIT.windowMs + 1
    await hitRateLimit(ctx.db, { rule: LOOKUP_LIMIT, client: '192.0.2.1', now: later })
    expect(await count()).toBe(1)
  })
})

describe('with PUBLIC_URL on HTTPS behind a proxy that rewrites Host', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext('sqlite', { trustProxy: 1, publicUrl: PUBLIC_URL })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  // the proxy reached us over plain HTTP on an internal address, as most do
  const BEHIND_PROXY = { Host: '10.0.0.5:3000', 'X-Forwarded-For': '203.0.113.30' }

  // not staffLogin: behind the proxy the Host is its internal address, not the Origin's site, and the cookie is __Host-
  function login(origin: string) {
    return request(ctx.app)
      .post('/api/staff/login')
      .set({ ...BEHIND_PROXY, Origin: origin })
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD })
  }

  it('sets a Secure, host-only __Host- session cookie that then opens the dashboard', async () => {
    const res = await login(PUBLIC_URL).expect(204)
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? ''
    expect(cookie).toMatch(
      /^__Host-staff_session=[\w-]+; Max-Age=\d+; Path=\/; Expires=.+; HttpOnly; Secure; SameSite=Strict$/,
    )
    await request(ctx.app)
      .get('/api/staff/session')
      .set({ ...BEHIND_PROXY, Cookie: cookie.split(';')[0]! })
      .expect(200)
      .expect((res) =>
        expect(res.body).toMatchObject({ authenticated: true, account: { email: ADMIN_EMAIL } }),
      )
  })

  it('compares a staff request’s Origin with PUBLIC_URL, not with the Host header', async () => {
    const refused = await login('http://10.0.0.5:3000').expect(403)
    expect(refused.body.error.code).toBe('CROSS_SITE_REQUEST')
    await login('https://evil.example').expect(403)
  })

  it('links the CSV’s screenshots under PUBLIC_URL', async () => {
    await sendClaimFrom(ctx, BEHIND_PROXY, '(555) 223-0002').expect(201)
    const res = await login(PUBLIC_URL).expect(204)
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!
    const csv = await request(ctx.app)
      .get('/api/staff/apps/brigit/export.csv')
      .set({ ...BEHIND_PROXY, Cookie: cookie })
      .expect(200)
    expect(csv.text).toMatch(new RegExp(`${PUBLIC_URL}/api/staff/claims/\\d+/screenshot`))
    expect(csv.text).not.toContain('10.0.0.5')
  })
})
