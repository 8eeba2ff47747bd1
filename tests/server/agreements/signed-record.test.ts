import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SignedRecordView } from '../../../src/api/staff.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { createTestContext, DIALECTS, makeClaimData, makePng, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'record.test'
const OTHER_APP_STAFF = { email: 'cleo.only@firm.test', password: 'cleo only password 1' }

for (const dialect of DIALECTS) {
  describe(`${dialect}: a claim's signed record in its details`, () => {
    let ctx: TestContext
    let admin: string
    let claimId: number

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      const filed = await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .set('User-Agent', 'Phone Browser 1.0')
        .field('data', JSON.stringify(makeClaimData({ firstName: 'Rosa', lastName: 'Record' })))
        .attach('screenshot', makePng(), 'statement.png')
        .expect(201)
      claimId = Number(filed.body.id)
      admin = await loginStaff(ctx.app, { site: SITE })
      await createAccount(ctx.db, {
        ...OTHER_APP_STAFF,
        name: 'Cleo Only',
        role: 'staff',
        apps: [{ app: 'cleo', canExport: false }],
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('shows when, from where and in what browser the claim was signed, with the signature, on the record', async () => {
      const res = await request(ctx.app)
        .get(`/api/staff/claims/${claimId}/signed-record`)
        .set('Cookie', admin)
        .expect(200)
      const record = res.body as SignedRecordView
      expect(record).toMatchObject({
        userAgent: 'Phone Browser 1.0',
        signatureMethod: 'drawn',
        typedName: null,
        locale: 'en',
        confirmation: null,
      })
      expect(record.signature).toMatch(/^data:image\/png;base64,/)
      expect(record.agreementSha256).toMatch(/^[0-9a-f]{64}$/)
      expect(res.headers['cache-control']).toBe('private, no-store')
      const logged = await ctx.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'claim_view')
        .where('detail', '=', `claim ${claimId}: signed record`)
        .execute()
      expect(logged).toHaveLength(1)
    })

    it('serves the agreement as signed, as a document that can run and load nothing', async () => {
      const res = await request(ctx.app)
        .get(`/api/staff/claims/${claimId}/agreement.html`)
        .set('Cookie', admin)
        .expect(200)
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(res.headers['content-security-policy']).toContain('sandbox')
      expect(res.headers['content-security-policy']).toContain("default-src 'none'")
      expect(res.text).toContain('Rosa')
      const stored = await ctx.db
        .selectFrom('agreement_records')
        .select('html')
        .where('claim_id', '=', claimId)
        .executeTakeFirstOrThrow()
      expect(res.text).toBe(stored.html)
    })

    it('refuses without a session (401), for an app the account may not see (403) and for no claim (404)', async () => {
      await request(ctx.app).get(`/api/staff/claims/${claimId}/signed-record`).expect(401)
      const other = await loginStaff(ctx.app, { site: SITE, ...OTHER_APP_STAFF })
      await request(ctx.app)
        .get(`/api/staff/claims/${claimId}/signed-record`)
        .set('Cookie', other)
        .expect(403)
      await request(ctx.app)
        .get(`/api/staff/claims/${claimId}/agreement.html`)
        .set('Cookie', other)
        .expect(403)
      await request(ctx.app).get('/api/staff/claims/999999/signed-record').set('Cookie', admin).expect(404)
    })
  })
}
