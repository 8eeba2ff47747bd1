import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCounts } from '../../../src/api/staff-home.ts'
import { compileClaimStatements } from '../../../server/submissions/claim-store.ts'
import { claimRow } from '../support/claim-fixtures.ts'
import { clearClaims, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'

const SITE = 'home.test'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the staff home's counts`, () => {
    let ctx: TestContext
    let admin: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      await clearClaims(ctx)
      const writes = compileClaimStatements(ctx.db)
      // brigit: two received, one in review, one cured, one deficient, three approved, one rejected
      const statuses = [
        'received',
        'received',
        'in_review',
        'cured',
        'deficient',
        'approved',
        'approved',
        'approved',
        'rejected',
      ]
      for (const [index, status] of statuses.entries()) {
        const { id } = await writes.insertClaim(
          ctx.db,
          claimRow(`(555) 700-10${String(index).padStart(2, '0')}`),
        )
        await ctx.db.updateTable('claims').set({ review_status: status }).where('id', '=', id).execute()
      }
      await writes.insertClaim(ctx.db, { ...claimRow('(555) 700-2000'), app: 'earnin' })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const counts = async (cookie: string) =>
      (
        await request(ctx.app)
          .get('/api/staff/app-counts')
          .set({ Host: SITE })
          .set('Cookie', cookie)
          .expect(200)
      ).body as AppCounts

    it('counts each app its claims to review, deficient and ready to file, by the roles of its review config', async () => {
      const { apps } = await counts(admin)
      expect(apps.find((app) => app.slug === 'brigit')).toEqual({
        slug: 'brigit',
        name: 'Brigit',
        toReview: 4,
        deficient: 1,
        readyToFile: 3,
      })
      expect(apps.find((app) => app.slug === 'earnin')).toMatchObject({
        toReview: 1,
        deficient: 0,
        readyToFile: 0,
      })
    })

    it('lists only the apps the account may see', async () => {
      const staff = await signInNewAccount(ctx, SITE, {
        email: 'home-staff@firm.test',
        password: 'staff password 1',
        name: 'Sam Staff',
        role: 'staff',
        apps: [{ app: 'earnin', canExport: false }],
      })
      expect((await counts(staff)).apps.map((app) => app.slug)).toEqual(['earnin'])
    })
  })
}
