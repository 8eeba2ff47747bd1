import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../../server/logger.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'

/** Just over the second /readyz keeps its answer. */
const PAST_CACHE_MS = 1_100
const pastCache = () => new Promise((resolve) => setTimeout(resolve, PAST_CACHE_MS))

for (const dialect of DIALECTS) {
  describe(`${dialect}: the load balancer's probes`, () => {
    let ctx: TestContext
    const logLines: string[] = []
    beforeAll(async () => {
      const logger = createLogger('info', { write: (line: string) => void logLines.push(line) })
      ctx = await createTestContext(dialect, { logger })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('answers /healthz 200 with no session, cookie or personal data', async () => {
      const res = await request(ctx.app).get('/healthz').expect(200)
      expect(res.body).toEqual({ status: 'ok' })
      expect(res.headers['set-cookie']).toBeUndefined()
      expect(res.headers['cache-control']).toBe('no-store')
    })

    it('answers /readyz 200 when the database, its migrations and the screenshot store are ready', async () => {
      const res = await request(ctx.app).get('/readyz').expect(200)
      expect(res.body).toEqual({
        status: 'ready',
        checks: { database: 'ok', migrations: 'ok', screenshotStore: 'ok' },
      })
    })

    it('answers /readyz from its last check for a second, then 503 for a migration not run, naming it in the log only', async () => {
      const last = '2026_11_25_1300_add_signature_method'
      const table = sql.table('kysely_migration')
      await pastCache()
      await request(ctx.app).get('/readyz').expect(200)
      await sql`DELETE FROM ${table} WHERE name = ${last}`.execute(ctx.db)
      try {
        // within the second: the answer checked before the row went
        await request(ctx.app).get('/readyz').expect(200)
        await pastCache()
        const res = await request(ctx.app).get('/readyz').expect(503)
        expect(res.body).toEqual({
          status: 'unavailable',
          checks: { database: 'ok', migrations: 'failed', screenshotStore: 'ok' },
        })
        expect(logLines.join('')).toContain(last)
      } finally {
        await sql`INSERT INTO ${table} (name, timestamp) VALUES (${last}, ${new Date().toISOString()})`.execute(
          ctx.db,
        )
      }
      await pastCache()
      await request(ctx.app).get('/readyz').expect(200)
    })

    it('checks once for many probes at once, and names the failing store’s folder in the log, not the answer', async () => {
      const folder = path.join(ctx.dataDir, 'screenshots')
      fs.rmSync(folder, { recursive: true, force: true })
      // a file where the folder should be: the store cannot be written
      fs.writeFileSync(folder, '')
      const failures = () => logLines.filter((line) => line.includes(folder)).length
      try {
        await pastCache()
        const before = failures()
        const answers = await Promise.all(Array.from({ length: 20 }, () => request(ctx.app).get('/readyz')))
        for (const res of answers) {
          expect(res.status).toBe(503)
          expect(res.body.checks).toEqual({ database: 'ok', migrations: 'ok', screenshotStore: 'failed' })
          expect(res.text).not.toContain(ctx.dataDir)
        }
        expect(failures() - before).toBe(1)
      } finally {
        fs.rmSync(folder, { force: true })
      }
      await pastCache()
      await request(ctx.app).get('/readyz').expect(200)
    })

    it('is never rate limited: a probe every few seconds for hours stays 200', async () => {
      for (let i = 0; i < 40; i++) await request(ctx.app).get('/readyz').expect(200)
    })
  })
}
