import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Funnel } from '../../../src/api/funnel.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'
import { moveClaimTo, postClaim } from '../support/claims.ts'

const SITE = 'funnel.test'
const TODAY = new Date().toISOString().slice(0, 10)

for (const dialect of DIALECTS) {
  describe(`${dialect}: where claims come from, and the funnel by source`, () => {
    let ctx: TestContext
    let admin: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const fileIntake = (attribution: unknown) => {
      seq += 1
      return request(ctx.app)
        .post('/api/intake')
        .send(
          makeIntakeData({
            email: `source${seq}@mail.test`,
            phone: `(808) 555-02${String(seq).padStart(2, '0')}`,
            cashAdvanceApps: ['earnin', 'chime'],
            attribution,
          }),
        )
    }
    const sendClaim = (app: string, attribution: unknown) => {
      seq += 1
      const fields = {
        email: `claim${seq}@mail.test`,
        phoneNumber: `(646) 555-03${String(seq).padStart(2, '0')}`,
      }
      return postClaim(ctx.app, { app, fields, attribution })
    }
    const funnel = async (query: Record<string, string> = {}) =>
      (await request(ctx.app).get('/api/staff/funnel').query(query).set('Cookie', admin).expect(200))
        .body as Funnel

    it('keeps the known parameters of an intake and a claim, cut to 200 characters and without control characters', async () => {
      const intake = await fileIntake({
        utm_source: 'fb',
        utm_campaign: 'spring\u0007 sale',
        utm_term: 'x'.repeat(300),
        referrer: 'm.facebook.com',
        favourite_colour: 'blue',
      }).expect(201)
      const stored = await ctx.db
        .selectFrom('form_submissions')
        .select(['source', 'attribution'])
        .where('id', '=', (intake.body as { id: number }).id)
        .executeTakeFirstOrThrow()
      expect(stored.source).toBe('fb')
      expect(JSON.parse(stored.attribution!)).toEqual({
        utm_source: 'fb',
        utm_campaign: 'spring sale',
        utm_term: 'x'.repeat(200),
        referrer: 'm.facebook.com',
      })
      const claim = await sendClaim('earnin', { utm_source: 'fb', gclid: 'abc' }).expect(201)
      const row = await ctx.db
        .selectFrom('claims')
        .select(['source', 'attribution'])
        .where('id', '=', (claim.body as { id: number }).id)
        .executeTakeFirstOrThrow()
      expect([row.source, JSON.parse(row.attribution!)]).toEqual(['fb', { utm_source: 'fb', gclid: 'abc' }])
    })

    it("exports each claim's campaign parameters in the claims CSV, in their own columns", async () => {
      const csv = await request(ctx.app)
        .get('/api/staff/apps/earnin/export.csv')
        .set('Cookie', admin)
        .expect(200)
      const [header, ...records] = csv.text
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
      // the fraud score's two columns come after them
      expect(header!.split(',').slice(-10, -2)).toEqual([
        'UTM Source',
        'UTM Medium',
        'UTM Campaign',
        'UTM Content',
        'UTM Term',
        'GCLID',
        'FBCLID',
        'Referrer',
      ])
      expect(records.map((record) => record.split(',').slice(-10, -2).join(','))).toContain('fb,,,,,abc,,')
    })

    it('refuses an attribution field that is not a JSON object, keeping nothing', async () => {
      const before = await ctx.db
        .selectFrom('claims')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      const res = await sendClaim('chime', 'utm_source=fb').expect(400)
      expect(res.body.error.message).toBe(
        '"attribution" must be a JSON object of the landing\'s campaign parameters',
      )
      await fileIntake(['fb']).expect(400)
      const after = await ctx.db
        .selectFrom('claims')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
      expect(Number(after.n)).toBe(Number(before.n))
    })

    it('counts each source from intake to approved claim, reconciling with the claims table as claims move', async () => {
      await fileIntake({ utm_source: 'tv' }).expect(201)
      const tvClaim = (await sendClaim('chime', { utm_source: 'tv' }).expect(201)).body as { id: number }
      await sendClaim('earnin', { utm_source: 'tv' }).expect(201)
      await sendClaim('chime', undefined).expect(201)
      // one tv claim confirmed by its claimant (confirmed_at written as the copy's "Confirm it was you" link
      // sets it, which confirmation.test.ts follows) and approved by a reviewer
      await ctx.db
        .updateTable('claims')
        .set({ confirmed_at: new Date().toISOString() })
        .where('id', '=', tvClaim.id)
        .execute()
      await moveClaimTo(ctx, { id: tvClaim.id, app: 'chime', status: 'approved' })
      const found = await funnel({ from: TODAY, to: TODAY })
      const tv = found.sources.find((row) => row.source === 'tv')!
      expect(tv).toEqual({
        source: 'tv',
        intakes: 1,
        claimsByApp: { chime: 1, earnin: 1 },
        claims: 2,
        confirmed: 1,
        approved: 1,
        // none scored yet here (tests/server/fraud/fraud-review.test.ts counts the fraud rate)
        scored: 0,
        held: 0,
      })
      expect(found.sources.find((row) => row.source === 'fb')).toMatchObject({ intakes: 1, claims: 1 })
      expect(found.sources.find((row) => row.source === '(none)')).toMatchObject({ intakes: 0, claims: 1 })
      // the counters say what the claims table says, source by source
      const counted = await ctx.db
        .selectFrom('claims')
        .select((eb) => ['source', eb.fn.countAll().as('n')])
        .groupBy('source')
        .execute()
      for (const { source, n } of counted) {
        expect([source, found.sources.find((row) => row.source === source)?.claims]).toEqual([
          source,
          Number(n),
        ])
      }
      // a claim made deficient is no longer approved; a day outside the range counts nothing
      await moveClaimTo(ctx, { id: tvClaim.id, app: 'chime', status: 'deficient' })
      expect(
        (await funnel({ from: TODAY, to: TODAY })).sources.find((row) => row.source === 'tv')!.approved,
      ).toBe(0)
      expect((await funnel({ from: '2020-01-01', to: '2020-01-31' })).sources).toEqual([])
    })

    it('exports the funnel as CSV with its conversions, and refuses a bad range', async () => {
      const csv = await request(ctx.app)
        .get('/api/staff/funnel/export.csv')
        .query({ from: TODAY, to: TODAY })
        .set('Cookie', admin)
        .expect(200)
      const lines = csv.text
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n')
      expect(lines[0]).toBe(
        'Source,Intakes,Chime Claims,Earnin Claims,Step 2 Claims,Claims per Intake,Confirmed,Confirmed of Claims,Approved,Approved of Claims,Scored,Held,Fraud Rate',
      )
      expect(lines).toContain('tv,1,1,1,2,2.00 claims per intake,1,50.0 %,0,0.0 %,0,0,—')
      expect(lines.at(-1)).toMatch(/^All sources,/)
      const bad = await request(ctx.app)
        .get('/api/staff/funnel')
        .query({ from: TODAY, to: '2020-01-01' })
        .set('Cookie', admin)
      expect([bad.status, bad.body.error.message]).toEqual([400, '"from" must not be after "to"'])
    })

    it('shows approved claims as a share of the claims, so approvals without confirmation stay within 100 %', async () => {
      // both tv claims approved: the confirmed one once cured, the other without confirmation
      const tvClaims = await ctx.db
        .selectFrom('claims')
        .select(['id', 'app'])
        .where('source', '=', 'tv')
        .execute()
      for (const { id, app } of tvClaims) await moveClaimTo(ctx, { id: Number(id), app, status: 'approved' })
      const csv = await request(ctx.app)
        .get('/api/staff/funnel/export.csv')
        .query({ from: TODAY, to: TODAY })
        .set('Cookie', admin)
        .expect(200)
      const tv = csv.text.split('\r\n').find((line) => line.startsWith('tv,'))
      expect(tv).toBe('tv,1,1,1,2,2.00 claims per intake,1,50.0 %,2,100.0 %,0,0,—')
      const total = (await funnel({ from: TODAY, to: TODAY })).total
      expect(total.approved).toBeGreaterThan(total.confirmed)
      expect(total.approved).toBeLessThanOrEqual(total.claims)
    })

    it('is for admins only', async () => {
      const staff = await signInNewAccount(ctx, SITE, {
        email: 'funnel-staff@firm.test',
        password: 'staff password 1',
        name: 'Sam Staff',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: true }],
      })
      await request(ctx.app).get('/api/staff/funnel').set('Cookie', staff).expect(403)
    })
  })
}
