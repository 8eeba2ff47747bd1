import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Funnel } from '../../../src/api/funnel.ts'
import { syncFraudHolds } from '../../../server/fraud/fraud-holds.ts'
import { clearClaims, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { fileAsForm, fileDeviceRing, humanSignals, person, scoreAll } from '../support/fraud-claims.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'fraud-funnel.test'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the funnel's fraud rate per source`, () => {
    let ctx: TestContext
    let admin: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const today = () => new Date().toISOString().slice(0, 10)
    const fraudOf = async (source: string) => {
      const funnel = (
        await request(ctx.app)
          .get('/api/staff/funnel')
          .query({ from: today(), to: today() })
          .set('Cookie', admin)
          .expect(200)
      ).body as Funnel
      const row = funnel.sources.find((line) => line.source === source)
      return row && { scored: row.scored, held: row.held }
    }

    it('counts per source the scored claims and the held ones, not those cleared or not scored yet', async () => {
      const ring = await fileDeviceRing(ctx, {
        device: 'device-ring-0000000077',
        size: 4,
        attribution: { utm_source: 'ringads' },
      })
      for (const [n, first] of ['Tara', 'Tom'].entries()) {
        await fileAsForm(ctx, person(first, 'Viewer'), {
          signals: humanSignals(`device-own-00000001${n}`),
          address: `203.0.113.${60 + n}`,
          attribution: { utm_source: 'tv' },
        })
      }
      await scoreAll(ctx)
      // one of the ring cleared by a decider, and one tv claim still to score
      await ctx.db
        .updateTable('claims')
        .set({ fraud_cleared_at: Date.now() })
        .where('id', '=', ring[0]!)
        .execute()
      await fileAsForm(ctx, person('Late', 'Viewer'), {
        signals: humanSignals('device-own-0000000199'),
        address: '203.0.113.70',
        attribution: { utm_source: 'tv' },
      })
      const today = new Date().toISOString().slice(0, 10)
      const funnel = (
        await request(ctx.app)
          .get('/api/staff/funnel')
          .query({ from: today, to: today })
          .set('Cookie', admin)
          .expect(200)
      ).body as Funnel
      const bySource = (source: string) => funnel.sources.find((row) => row.source === source)
      expect(bySource('ringads')).toMatchObject({ claims: 4, scored: 4, held: 3 })
      expect(bySource('tv')).toMatchObject({ claims: 3, scored: 2, held: 0 })
      expect(funnel.total).toMatchObject({ claims: 7, scored: 6, held: 3 })

      const csv = await request(ctx.app)
        .get('/api/staff/funnel/export.csv')
        .query({ from: today, to: today })
        .set('Cookie', admin)
        .expect(200)
      const lines = csv.text
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
      expect(lines[0]!.split(',').slice(-3)).toEqual(['Scored', 'Held', 'Fraud Rate'])
      const tail = (source: string) =>
        lines
          .find((line) => line.startsWith(`${source},`))!
          .split(',')
          .slice(-3)
      expect(tail('ringads')).toEqual(['4', '3', '75.0 %'])
      expect(tail('tv')).toEqual(['2', '0', '0.0 %'])
      expect(tail('All sources')).toEqual(['6', '3', '50.0 %'])
    })

    it("counts the held again when an app's hold threshold changes, and forgets a purged claim", async () => {
      await clearClaims(ctx)
      await fileDeviceRing(ctx, {
        device: 'device-ring-0000000088',
        size: 3,
        attribution: { utm_source: 'recount' },
      })
      await scoreAll(ctx)
      expect(await fraudOf('recount')).toEqual({ scored: 3, held: 3 })
      // a firm lowers brigit's hold below the ring's 600: on the next start, none of them is held
      const stricter = (app: string) => {
        const config = ctx.fraud(app)
        return app === 'brigit' ? { ...config, thresholds: { review: 850, hold: 500 } } : config
      }
      expect(await syncFraudHolds({ db: ctx.db, fraud: stricter, apps: ctx.forms.keys() })).toEqual([
        'brigit',
      ])
      expect(await fraudOf('recount')).toEqual({ scored: 3, held: 0 })
      expect(await syncFraudHolds({ db: ctx.db, fraud: stricter, apps: ctx.forms.keys() })).toEqual([])
      expect(await syncFraudHolds({ db: ctx.db, fraud: ctx.fraud, apps: ctx.forms.keys() })).toEqual([
        'brigit',
      ])
      expect(await fraudOf('recount')).toEqual({ scored: 3, held: 3 })
      await clearClaims(ctx)
      expect(await fraudOf('recount')).toBeUndefined()
      // the purged claims' counters are back at zero: scored and held with the claims themselves
      const counters = await ctx.db
        .selectFrom('funnel_days')
        .select(['claims', 'scored', 'held'])
        .where('source', '=', 'recount')
        .execute()
      expect(counters.map((row) => [Number(row.claims), Number(row.scored), Number(row.held)])).toEqual([
        [0, 0, 0],
      ])
    })
  })
}
