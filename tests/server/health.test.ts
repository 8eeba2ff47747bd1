import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, DIALECTS, type TestContext } from './helpers.ts'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the load balancer's probes`, () => {
    let ctx: TestContext
    beforeAll(async () => {
      ctx = await createTestContext(dialect)
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

    it('answers /readyz 503 naming the migration the database has not run', async () => {
      const last = '2026_11_25_1300_add_signature_method'
      const table = sql.table('kysely_migration')
      await sql`DELETE FROM ${table} WHERE name = ${last}`.execute(ctx.db)
      try {
        const res = await request(ctx.app).get('/readyz').expect(503)
        expect(res.body).toEqual({
          status: 'unavailable',
          checks: { database: 'ok', migrations: `failed: 1 not applied: ${last}`, screenshotStore: 'ok' },
        })
      } finally {
        await sql`INSERT INTO ${table} (name, timestamp) VALUES (${last}, ${new Date().toISOString()})`.execute(
          ctx.db,
        )
      }
    })

    it('is never rate limited: a probe every few seconds for hours stays 200', async () => {
      for (let i = 0; i < 40; i++) await request(ctx.app).get('/readyz').expect(200)
    })
  })
}
