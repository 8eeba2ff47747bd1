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
} from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { killServerProcesses, startServerProcess, type ServerProcess } from '../support/server-process.ts'
import { CEILING_SYNC_MS, sharedCeiling } from '../../../server/rate-limit.ts'

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
      ctx = await createTestContext(dialect, { publicLimits: { perAddress: 3, globalPerMinute: 1000 } })
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      await ctx.db.deleteFrom('rate_limits').execute()
    })

    it('refuses a claim, an intake, a lookup, a link opened and a download sent from another site with 403, and stores nothing', async () => {
      const evil = { Origin: 'https://evil.example' }
      const claim = await claimFrom(ctx, '198.51.100.1', 1, evil)
      const intake = await intakeFrom(ctx, '198.51.100.1', 1, evil)
      const lookup = await request(ctx.app)
        .post('/api/agreements/lookup')
        .set(evil)
        .send({ email: 'jane@example.com', phone: '2125551000' })
      const opened = await request(ctx.app)
        .post('/api/agreements/open')
        .set(evil)
        .send({ token: 'A'.repeat(43) })
      const download = await request(ctx.app)
        .post('/api/agreements/download')
        .set({ Origin: 'null' })
        .send({ key: 'A'.repeat(43), claimId: 1, format: 'pdf' })
      for (const res of [claim, intake, lookup, opened]) {
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

    it('counts claims sent at once from one address one by one: of 6, 3 are taken', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 6 }, (_, n) => claimFrom(ctx, '198.51.100.9', 20 + n).then((res) => res.status)),
      )
      expect(statuses.filter((status) => status === 201)).toHaveLength(3)
      expect(statuses.filter((status) => status === 429)).toHaveLength(3)
      expect(await countClaims(ctx.db)).toBe(3)
    })

    it('counts an IPv6 client by its /64', async () => {
      for (let n = 1; n <= 3; n++) await claimFrom(ctx, `2001:db8:1:2::${n}`, n).expect(201)
      expect((await claimFrom(ctx, '2001:db8:1:2:ffff::9', 4)).status).toBe(429)
      await claimFrom(ctx, '2001:db8:1:3::1', 5).expect(201)
    })

    it('refuses every address once the forms together pass the ceiling per minute', async () => {
      // the ceiling counts per clock minute: start with the whole of one ahead
      const intoMinute = Date.now() % 60_000
      if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute))
      // a server of its own: each process keeps its share of the ceiling's count in memory
      const own = await createTestContext(dialect, { publicLimits: { perAddress: 1000, globalPerMinute: 8 } })
      try {
        for (let n = 1; n <= 8; n++) await claimFrom(own, `203.0.113.${n}`, n).expect(201)
        const refused = await claimFrom(own, '203.0.113.200', 9)
        expect(refused.status).toBe(429)
        expect(refused.body.error).toEqual({ code: 'RATE_LIMITED', message: BUSY })
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
        const lookup = await request(own.app)
          .post('/api/agreements/lookup')
          .set('X-Forwarded-For', '203.0.113.201')
          .send({ email: 'jane@example.com', phone: '2125551000' })
        expect(lookup.status).toBe(429)
        expect(await countClaims(own.db)).toBe(8)
        // the count is in the database for the other processes: this one's first hit wrote it
        const [row] = await own.db
          .selectFrom('rate_limits')
          .selectAll()
          .where('key', 'like', 'public-all:%')
          .execute()
        expect(Number(row!.hits)).toBeGreaterThanOrEqual(1)
      } finally {
        await own.close()
      }
    })

    it('counts toward the ceiling only what its address may send: one address’s 20 claims leave room for the others', async () => {
      const intoMinute = Date.now() % 60_000
      if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute))
      const own = await createTestContext(dialect, { publicLimits: { perAddress: 3, globalPerMinute: 8 } })
      try {
        const statuses: number[] = []
        const messages = new Set<string>()
        for (let n = 1; n <= 20; n++) {
          const res = await claimFrom(own, '203.0.113.50', n)
          statuses.push(res.status)
          if (res.status === 429) messages.add(res.body.error.message)
        }
        expect(statuses.filter((status) => status === 201)).toHaveLength(3)
        expect(statuses.filter((status) => status === 429)).toHaveLength(17)
        expect([...messages]).toEqual([TOO_MANY])
        // the 3 taken and 5 from other addresses fill the 8 of the minute; the 9th is one too many
        for (let n = 1; n <= 5; n++) await claimFrom(own, `203.0.113.${60 + n}`, 100 + n).expect(201)
        const refused = await claimFrom(own, '203.0.113.70', 200)
        expect(refused.status).toBe(429)
        expect(refused.body.error.message).toBe(BUSY)
        expect(await countClaims(own.db)).toBe(8)
      } finally {
        await own.close()
      }
    })
  })

  describe(`${dialect}: the ceiling shared by server processes`, () => {
    it('adds each process’s hits to the database once a second and counts the others’ once it has synced', async () => {
      const ctx = await createTestContext(dialect)
      try {
        const rule = { name: 'test-ceiling', limit: 6, windowMs: 60_000 }
        const [a, b] = [sharedCeiling(ctx.db, rule), sharedCeiling(ctx.db, rule)]
        const minute = 60_000 * 1000
        // A: its first hit is written at once, the next three wait for its next sync
        for (let i = 0; i < 4; i++) expect((await a(minute + i)).allowed).toBe(true)
        expect((await a(minute + CEILING_SYNC_MS)).allowed).toBe(true) // 5, all written
        // B's first hit writes and reads the total: 6 of 6
        expect((await b(minute + CEILING_SYNC_MS + 1)).allowed).toBe(true)
        expect((await b(minute + CEILING_SYNC_MS + 2)).allowed).toBe(false)
        // a new minute starts from nothing
        expect((await b(minute + 60_000)).allowed).toBe(true)
      } finally {
        await ctx.close()
      }
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
