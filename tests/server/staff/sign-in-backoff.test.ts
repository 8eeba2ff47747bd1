import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVALID_PASSWORD_MESSAGE } from '../../../src/staff-messages.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { mailsTo, plainTextOf } from '../support/agreement-link.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import {
  codeFor,
  SAME_SITE,
  sessionCookie,
  freshAddress,
  STAFF_PASSWORD,
  staffLogin as login,
} from '../support/staff-sign-in.ts'

const PASSWORD = STAFF_PASSWORD
const FAILURE_SUBJECT = 'Failed sign-ins to your staff account'
let nextAccount = 1

for (const dialect of DIALECTS) {
  describe(`${dialect}: failed sign-ins per account`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function newAccount(): Promise<{ id: number; email: string }> {
      const email = `guessed${nextAccount++}@firm.test`
      const id = await createAccount(ctx.db, {
        email,
        name: 'Pat Guessed',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
        password: PASSWORD,
      })
      return { id, email }
    }

    function failureMails(email: string) {
      return mailsTo(ctx.dataDir, email).filter(({ eml }) =>
        new RegExp(`^Subject: ${FAILURE_SUBJECT}$`, 'm').test(eml),
      )
    }

    /** Ends the account's pause as time would, keeping its count. */
    async function endPause() {
      await ctx.db
        .updateTable('staff_sign_in_failures')
        .set({ paused_until: Date.now() - 1 })
        .execute()
    }

    async function wrongPasswords(email: string, count: number) {
      for (let attempt = 1; attempt <= count; attempt++) {
        const res = await login(ctx.app, { email, password: `guess number ${attempt}` })
        expect(res.status).toBe(401)
        expect(res.body.error.message).toBe(INVALID_PASSWORD_MESSAGE)
      }
    }

    it('pauses sign-in after five wrong passwords from five addresses, refuses the right one meanwhile, and e-mails the owner once', async () => {
      const { id, email } = await newAccount()
      await wrongPasswords(email, 5)

      const sixth = await login(ctx.app, { email, password: 'guess number 6' })
      expect(sixth.status).toBe(429)
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0)
      expect(sixth.body.error.message).toMatch(/^Too many failed sign-ins to this account\. .*try again\.$/)
      const right = await login(ctx.app, { email })
      expect(right.status).toBe(429)
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0)
      expect(right.body.error.message).toBe(sixth.body.error.message)
      expect(right.headers['set-cookie']).toBeUndefined()

      const mails = failureMails(email)
      expect(mails).toHaveLength(1)
      const text = plainTextOf(mails[0]!.eml).replace(/\s+/g, ' ')
      expect(text).toContain('There were 5 failed sign-ins in a row to your staff account')
      const audit = await ctx.db
        .selectFrom('audit_log')
        .select(['action', 'detail'])
        .where('account_id', '=', id)
        .execute()
      expect(audit.filter((row) => row.action === 'login_failure')).toHaveLength(7)
      expect(audit).toContainEqual({ action: 'login_failure', detail: 'sign-in paused after failures' })
    })

    it('doubles the pause with each further failure, and a whole sign-in starts the count again', async () => {
      const { email } = await newAccount()
      await wrongPasswords(email, 5)
      const first = Number((await login(ctx.app, { email })).headers['retry-after'])
      expect(first).toBeGreaterThan(0)
      expect(first).toBeLessThanOrEqual(60)

      await endPause()
      await wrongPasswords(email, 1)
      const second = Number((await login(ctx.app, { email })).headers['retry-after'])
      expect(second).toBeGreaterThan(60)
      expect(second).toBeLessThanOrEqual(120)
      expect(failureMails(email)).toHaveLength(1)

      await endPause()
      await login(ctx.app, { email }).expect(204)
      await wrongPasswords(email, 4)
      await login(ctx.app, { email }).expect(204)
    })

    it('pauses an address that names no account the same way, so a pause tells nothing', async () => {
      const email = `nobody${nextAccount++}@firm.test`
      await wrongPasswords(email, 5)
      const res = await login(ctx.app, { email })
      expect(res.status).toBe(429)
      expect(res.body.error.message).toMatch(/^Too many failed sign-ins to this account/)
    })

    it('pauses sign-in after five wrong TOTP codes, refusing the right code meanwhile', async () => {
      const { email } = await newAccount()
      const cookie = sessionCookie(await login(ctx.app, { email }).expect(204))
      const own = (path: string, body: object) =>
        request(ctx.app).post(`/api/staff/two-factor${path}`).set(SAME_SITE).set('Cookie', cookie).send(body)
      const { secret } = (await own('/setup', { password: PASSWORD }).expect(200)).body as { secret: string }
      await own('/confirm', { password: PASSWORD, code: codeFor(secret) }).expect(200)

      for (let attempt = 1; attempt <= 5; attempt++) {
        const res = await login(ctx.app, { email, code: '000000' })
        expect(res.status).toBe(401)
        expect(res.body.error.code).toBe('INVALID_CODE')
      }
      const right = await login(ctx.app, { email, code: codeFor(secret, 1) })

      expect(right.status).toBe(429)
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0)
      expect(right.body.error.message).toMatch(/^Too many failed sign-ins to this account/)
      expect(failureMails(email)).toHaveLength(1)
      await endPause()
      await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
    })

    it('counts wrong current passwords on the own-password change toward the pause, so a session cannot guess on', async () => {
      const { email } = await newAccount()
      const cookie = sessionCookie(await login(ctx.app, { email }).expect(204))
      const change = (currentPassword: string) =>
        request(ctx.app)
          .post('/api/staff/account/password')
          .set(SAME_SITE)
          .set('X-Forwarded-For', freshAddress())
          .set('Cookie', cookie)
          .send({ currentPassword, newPassword: 'another long enough password' })
      for (let attempt = 1; attempt <= 5; attempt++) {
        const res = await change(`guess number ${attempt}`)
        expect(res.status).toBe(400)
        expect(res.body.error.message).toBe('the current password is not right')
      }
      const right = await change(PASSWORD)
      expect(right.status).toBe(429)
      expect(right.body.error.message).toMatch(/^Too many failed sign-ins to this account/)
      expect(failureMails(email)).toHaveLength(1)
      expect((await login(ctx.app, { email })).status).toBe(429)
    })
  })
}
