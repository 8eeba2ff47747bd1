import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  clearClaims,
  countClaims,
  createPostgresDatabase,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  type TestContext,
} from './helpers.ts'
import { makeIntakeData } from './malformed-intakes.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from './server-process.ts'

const SCREENSHOT = makePng({ width: 30, height: 10 })
const TOO_MANY = 'Too many submissions from your connection. Please wait 15 minutes and try again.'
const BUSY =
  'The forms are receiving more submissions than they can take right now. Please wait a minute and try again.'

/** A claim on brigit from `address` (the proxy's X-Forwarded-For: loopback is trusted), with its own phone. */
function claimFrom(ctx: TestContext, address: string, n: number, headers: Record<string, string> = {}) {
  return request(ctx.app)
    .post('/api/forms/brigit/submissions')
    .set({ 'X-Forwarded-For': address, ...headers })
    .field('data', JSON.stringify(makeClaimData({ phoneNumber: `(212) 555-${String(1000 + n)}` })))
    .attach('screenshot', SCREENSHOT, 'statement.png')
}

function intakeFrom(ctx: TestContext, address: string, n: number, headers: Record<string, string> = {}) {
  return request(ctx.app)
    .post('/api/intake')
    .set({ 'X-Forwarded-For': address, ...headers })
    .send(makeIntakeData({ phone: `808555${String(1000 + n)}` }))
}

afterAll(() => killServerProcesses())

for (const dialect of DIALECTS) {
  describe(`${dialect}: the limits on the public forms`, () => {
    let ctx: TestContext
    beforeAll(async () => {
      ctx = await createTestContext(dialect, { publicLimits: { perAddress: 3, globalPerMinute: 8 } })
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      await ctx.db.deleteFrom('rate_limits').execute()
    })

    it('refuses a claim, an intake, a lookup and a download sent from another site with 403, and stores nothing', async () => {
      const evil = { Origin: 'https://evil.example' }
      const claim = await claimFrom(ctx, '198.51.100.1', 1, evil)
      const intake = await intakeFrom(ctx, '198.51.100.1', 1, evil)
      const lookup = await request(ctx.app)
        .post('/api/agreements/lookup')
        .set(evil)
        .send({ email: 'jane@example.com', phone: '2125551000' })
      const download = await request(ctx.app)
        .post('/api/agreements/download')
        .set({ Origin: 'null' })
        .send({ email: 'jane@example.com', phone: '2125551000', claimId: 1, format: 'pdf' })
      for (const res of [claim, intake, lookup]) {
        expect(res.status).toBe(403)
        expect(res.body.error).toEqual({
          code: 'CROSS_SITE_REQUEST',
          message: 'this form takes submissions from its own site only, not from "https://evil.example"',
        })
      }
      expect(download.status).toBe(403)
      expect(download.body.error.message).toBe(
        'this form takes submissions from its own site only, not from "null"',
      )
      expect(await countClaims(ctx.db)).toBe(0)
      expect(await ctx.db.selectFrom('form_submissions').select('id').execute()).toEqual([])
      expect(listScreenshotFiles(ctx.dataDir)).toEqual([])
    })

    it('takes a claim from its own site, and one with no Origin (as curl sends it)', async () => {
      const host = 'claims.example-firm.test'
      await claimFrom(ctx, '198.51.100.2', 1, { Host: host, Origin: `http://${host}` }).expect(201)
      await claimFrom(ctx, '198.51.100.2', 2).expect(201)
    })

    it('refuses the 4th claim in 15 minutes from one address with 429, Retry-After and the message the form shows; another address and the intake form still pass', async () => {
      for (let n = 1; n <= 3; n++) await claimFrom(ctx, '198.51.100.3', n).expect(201)
      const refused = await claimFrom(ctx, '198.51.100.3', 4)
      expect(refused.status).toBe(429)
      expect(refused.body.error).toEqual({ code: 'RATE_LIMITED', message: TOO_MANY })
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(890)
      expect(await countClaims(ctx.db)).toBe(3)
      expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(3)
      // the same address's /64 on IPv6, the same; another address and another kind of form, not
      await claimFrom(ctx, '198.51.100.4', 5).expect(201)
      await intakeFrom(ctx, '198.51.100.3', 1).expect(201)
      const spanish = await request(ctx.app)
        .post('/api/forms/brigit/submissions?lang=es')
        .set('X-Forwarded-For', '198.51.100.3')
        .field('data', JSON.stringify(makeClaimData({ phoneNumber: '(212) 555-1006' })))
        .attach('screenshot', SCREENSHOT, 'statement.png')
      expect(spanish.body.error.message).toBe(
        'Demasiados envíos desde su conexión. Espere 15 minutos e inténtelo de nuevo.',
      )
    })

    it('counts an IPv6 client by its /64', async () => {
      for (let n = 1; n <= 3; n++) await claimFrom(ctx, `2001:db8:1:2::${n}`, n).expect(201)
      expect((await claimFrom(ctx, '2001:db8:1:2:ffff::9', 4)).status).toBe(429)
      await claimFrom(ctx, '2001:db8:1:3::1', 5).expect(201)
    })

    it('refuses every address once the forms together pass the ceiling per minute', async () => {
      for (let n = 1; n <= 8; n++) await claimFrom(ctx, `203.0.113.${n}`, n).expect(201)
      const refused = await claimFrom(ctx, '203.0.113.200', 9)
      expect(refused.status).toBe(429)
      expect(refused.body.error).toEqual({ code: 'RATE_LIMITED', message: BUSY })
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
      const lookup = await request(ctx.app)
        .post('/api/agreements/lookup')
        .set('X-Forwarded-For', '203.0.113.201')
        .send({ email: 'jane@example.com', phone: '2125551000' })
      expect(lookup.status).toBe(429)
      expect(await countClaims(ctx.db)).toBe(8)
    })
  })

  describe(`${dialect}: the limits across two server processes`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-limits-'))
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

    it('shares one count per address: of 10 claims alternating between them, 4 are taken', async () => {
      const database = dialect === 'postgres' ? await createPostgresDatabase() : undefined
      const env = { PUBLIC_LIMIT_PER_ADDRESS: '4' }
      const servers: ServerProcess[] = [
        await startServerProcess({ dataDir, databaseUrl: database?.url, env }),
        await startServerProcess({ dataDir, databaseUrl: database?.url, env }),
      ]
      try {
        const statuses: number[] = []
        for (let n = 0; n < 10; n++) {
          const form = new FormData()
          form.append('data', JSON.stringify(makeClaimData({ phoneNumber: `(212) 555-${2000 + n}` })))
          form.append('screenshot', new Blob([new Uint8Array(SCREENSHOT)]), 's.png')
          const res = await fetch(`${servers[n % 2]!.url}/api/forms/brigit/submissions`, {
            method: 'POST',
            body: form,
          })
          statuses.push(res.status)
        }
        expect(statuses).toEqual([201, 201, 201, 201, 429, 429, 429, 429, 429, 429])
      } finally {
        await killServerProcesses()
        await database?.drop()
      }
    })
  })
}
