import type { Express } from 'express'
import { Migrator, type Kysely } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CODE_REQUIRED_MESSAGE,
  EMAIL_CODE_SENT_MESSAGE,
  INVALID_CODE_MESSAGE,
  INVALID_EMAIL_CODE_MESSAGE,
  SETUP_REQUIRED_MESSAGE,
} from '../../../src/two-factor-messages.ts'
import { LOGIN_RATE_LIMITED_MESSAGE } from '../../../src/staff-messages.ts'
import type { RequireTwoFactor } from '../../../server/config.ts'
import { MIGRATIONS } from '../../../migrations/index.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { createInvite } from '../../../server/staff/staff-invites.ts'
import { openTotpSecret } from '../../../server/staff/two-factor/two-factor-key.ts'
import type { StaffRole } from '../../../src/api/staff.ts'
import { mailsTo, plainTextOf, setupCodeTo } from '../support/agreement-link.ts'
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
let nextAccount = 1

function ownRoute(app: Express, cookie: string, path: string, body?: object) {
  const url = `/api/staff/two-factor${path}`
  const req = body === undefined ? request(app).get(url) : request(app).post(url).send(body)
  return req.set(SAME_SITE).set('Cookie', cookie)
}

/** A test here signs in up to 13 times, on a machine that may be busy. */
const SIGN_INS_TIMEOUT = { timeout: 120_000 }

for (const dialect of DIALECTS) {
  describe(`${dialect}: two-factor sign-in`, SIGN_INS_TIMEOUT, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect, { requireTwoFactor: 'admins' })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function newAccount(role: StaffRole = 'staff'): Promise<{ id: number; email: string }> {
      const email = `person${nextAccount++}@firm.test`
      const id = await createAccount(ctx.db, {
        email,
        name: 'Kim Person',
        role,
        apps: [{ app: 'brigit', canExport: false }],
        password: PASSWORD,
      })
      return { id, email }
    }

    /** The QR code's secret a required set-up gives, after the password and the e-mailed code. */
    async function startSetupAtSignIn(email: string, address = freshAddress()) {
      await login(ctx.app, { email, address }).expect(401)
      const emailCode = setupCodeTo(ctx.dataDir, email)
      const setup = await login(ctx.app, { email, address, emailCode }).expect(401)
      return { secret: setup.body.secret as string, emailCode }
    }

    /** An admin (whom REQUIRE_2FA=admins covers) that set up TOTP at its first sign-in. */
    async function adminWithTwoFactor() {
      const { id, email } = await newAccount('admin')
      const { secret, emailCode } = await startSetupAtSignIn(email)
      const confirmed = await login(ctx.app, { email, emailCode, code: codeFor(secret) }).expect(200)
      return { id, email, secret, recoveryCodes: confirmed.body.recoveryCodes as string[] }
    }

    async function accountRow(id: number) {
      return ctx.db
        .selectFrom('staff_accounts')
        .select(['totp_secret', 'totp_pending_secret'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    }

    /** The row's secrets as the server reads them: stored sealed under the context's two-factor key. */
    async function openedRow(id: number) {
      const row = await accountRow(id)
      const open = (stored: string | null) => {
        if (stored === null) return null
        expect(stored).toMatch(/^totp1:/)
        return openTotpSecret(ctx.twoFactorKey, stored)
      }
      return { totp_secret: open(row.totp_secret), totp_pending_secret: open(row.totp_pending_secret) }
    }

    async function auditOf(id: number) {
      return ctx.db
        .selectFrom('audit_log')
        .select(['action', 'detail', 'actor'])
        .where('account_id', '=', id)
        .orderBy('id')
        .execute()
    }

    describe('set up at sign-in', () => {
      it('e-mails an account REQUIRE_2FA covers a code, and shows no QR code to the password alone', async () => {
        const { id, email } = await newAccount('admin')
        const address = freshAddress()
        const res = await login(ctx.app, { email, address })

        expect(res.status).toBe(401)
        expect(res.body).toEqual({
          error: { code: 'TWO_FACTOR_EMAIL_CODE_REQUIRED', message: EMAIL_CODE_SENT_MESSAGE },
        })
        expect(res.headers['set-cookie']).toBeUndefined()
        expect(await accountRow(id)).toEqual({ totp_secret: null, totp_pending_secret: null })
        const [mail] = mailsTo(ctx.dataDir, email)
        expect(/^Subject: (.*)$/m.exec(mail!.eml)?.[1]).toBe('Your code to set up two-factor sign-in')
        const text = plainTextOf(mail!.eml).replace(/\s+/g, ' ')
        expect(text).toContain(`from the address ${address}.`)
        expect(text).toContain('It works for 30 minutes:')
        const code = setupCodeTo(ctx.dataDir, email)
        expect(code).toMatch(/^\d{8}$/)
        const stored = await ctx.db
          .selectFrom('staff_accounts')
          .select('totp_setup_code_hash')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        expect(stored.totp_setup_code_hash).toMatch(/^[0-9a-f]{64}$/)

        // guessing the e-mailed code gets no secret, and is a failed sign-in in the audit trail
        const guessed = String((Number(code) + 1) % 100_000_000).padStart(8, '0')
        const wrong = await login(ctx.app, { email, emailCode: guessed })
        expect(wrong.status).toBe(401)
        expect(wrong.body).toEqual({
          error: { code: 'INVALID_EMAIL_CODE', message: INVALID_EMAIL_CODE_MESSAGE },
        })
        expect(await accountRow(id)).toEqual({ totp_secret: null, totp_pending_secret: null })
        expect(await auditOf(id)).toContainEqual({
          action: 'login_failure',
          detail: 'wrong e-mailed code',
          actor: email,
        })
      })

      it('refuses an e-mailed code once a newer one was sent, or once it is 30 minutes old', async () => {
        const { id, email } = await newAccount('admin')
        await login(ctx.app, { email }).expect(401)
        const first = setupCodeTo(ctx.dataDir, email)
        await login(ctx.app, { email }).expect(401)
        const second = setupCodeTo(ctx.dataDir, email)
        if (first !== second) {
          expect((await login(ctx.app, { email, emailCode: first })).body.error.code).toBe(
            'INVALID_EMAIL_CODE',
          )
        }
        await ctx.db
          .updateTable('staff_accounts')
          .set({ totp_setup_code_expires_at: Date.now() - 1 })
          .where('id', '=', id)
          .execute()
        expect((await login(ctx.app, { email, emailCode: second })).body.error.code).toBe(
          'INVALID_EMAIL_CODE',
        )
        expect(await accountRow(id)).toEqual({ totp_secret: null, totp_pending_secret: null })
      })

      it('gives the secret and its QR code, with the e-mailed code, instead of a session', async () => {
        const { id, email } = await newAccount('admin')
        await login(ctx.app, { email }).expect(401)
        const res = await login(ctx.app, { email, emailCode: setupCodeTo(ctx.dataDir, email) })

        expect(res.status).toBe(401)
        expect(res.body).toEqual({
          error: { code: 'TWO_FACTOR_SETUP_REQUIRED', message: SETUP_REQUIRED_MESSAGE },
          secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
          otpauthUrl: expect.stringMatching(/^otpauth:\/\/totp\//),
          qrCode: expect.stringMatching(/^<svg[^>]*>[\s\S]*<\/svg>\s*$/),
        })
        const url = new URL(res.body.otpauthUrl as string)
        expect(Object.fromEntries(url.searchParams)).toMatchObject({
          secret: res.body.secret,
          algorithm: 'SHA1',
          digits: '6',
          period: '30',
        })
        expect(decodeURIComponent(url.pathname)).toContain(email)
        expect(res.headers['set-cookie']).toBeUndefined()
        expect(await openedRow(id)).toEqual({ totp_secret: null, totp_pending_secret: res.body.secret })
      })

      it('turns TOTP on with the first right code, starts the session and gives ten recovery codes once', async () => {
        const { id, email } = await newAccount('admin')
        const { secret, emailCode } = await startSetupAtSignIn(email)
        const wrong = await login(ctx.app, { email, emailCode, code: codeFor(secret, 5) })
        expect(wrong.status).toBe(401)
        expect(wrong.body.error.code).toBe('INVALID_CODE')
        expect((await accountRow(id)).totp_secret).toBeNull()
        // without the e-mailed code, the right TOTP code sets nothing up
        const bare = await login(ctx.app, { email, code: codeFor(secret) })
        expect(bare.body.error.code).toBe('TWO_FACTOR_EMAIL_CODE_REQUIRED')
        const latest = setupCodeTo(ctx.dataDir, email)

        const res = await login(ctx.app, { email, emailCode: latest, code: codeFor(secret) }).expect(200)

        const codes = res.body.recoveryCodes as string[]
        expect(codes).toHaveLength(10)
        expect(new Set(codes).size).toBe(10)
        for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
        expect(await openedRow(id)).toEqual({ totp_secret: secret, totp_pending_secret: null })
        const stored = await ctx.db
          .selectFrom('staff_recovery_codes')
          .select(['code_hash', 'used_at'])
          .where('account_id', '=', id)
          .execute()
        expect(stored).toHaveLength(10)
        for (const row of stored) {
          expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/)
          expect(codes.map((code) => code.replace('-', ''))).not.toContain(row.code_hash)
        }
        const session = await request(ctx.app)
          .get('/api/staff/session')
          .set('Cookie', sessionCookie(res))
          .expect(200)
        expect(session.body.account.twoFactor).toBe(true)
        expect((await auditOf(id)).map((row) => row.action)).toEqual([
          'login_failure',
          'login_success',
          'two_factor_enabled',
        ])
      })
    })

    describe('set up after an invitation', () => {
      /** An account of `role` invited by link, as an admin's invitation makes it: no password yet. */
      async function acceptedInvitation(role: StaffRole) {
        const email = `invited${nextAccount++}@firm.test`
        const id = await createAccount(ctx.db, { email, name: 'Ivy Invited', role, apps: [] })
        const token = await createInvite(ctx.db, id)
        const res = await request(ctx.app)
          .post('/api/staff/invites/accept')
          .set(SAME_SITE)
          .send({ token, password: PASSWORD })
          .expect(200)
        return { id, email, body: res.body as { twoFactorSetupCode?: string } }
      }

      it('hands the set-up code to the browser that used the link, so its sign-in shows the QR code without an e-mail', async () => {
        const { id, email, body } = await acceptedInvitation('admin')
        expect(body.twoFactorSetupCode).toMatch(/^\d{8}$/)

        const setup = await login(ctx.app, { email, emailCode: body.twoFactorSetupCode })
        expect(setup.body.error.code).toBe('TWO_FACTOR_SETUP_REQUIRED')
        const confirmed = await login(ctx.app, {
          email,
          emailCode: body.twoFactorSetupCode,
          code: codeFor(setup.body.secret as string),
        }).expect(200)
        expect(confirmed.body.recoveryCodes).toHaveLength(10)
        expect((await openedRow(id)).totp_secret).toBe(setup.body.secret)
        expect(mailsTo(ctx.dataDir, email).map(({ eml }) => /^Subject: (.*)$/m.exec(eml)?.[1])).toEqual([
          'Two-factor sign-in was turned on for your staff account',
        ])
      })

      it('hands no code over for an account REQUIRE_2FA does not cover', async () => {
        const { email, body } = await acceptedInvitation('staff')
        expect(body).toEqual({})
        await login(ctx.app, { email }).expect(204)
      })
    })

    describe("the owner's notice", () => {
      /** The subject and plain text of each notice of a change to `email`, oldest first. */
      function noticesTo(email: string) {
        return mailsTo(ctx.dataDir, email)
          .map(({ eml }) => ({
            subject: /^Subject: (.*)$/m.exec(eml)?.[1],
            text: plainTextOf(eml).replace(/\s+/g, ' '),
          }))
          .filter(({ subject }) => subject?.startsWith('Two-factor sign-in was turned'))
      }

      it("e-mails the account's own address when a sign-in turns two-factor sign-in on, naming the address it came from", async () => {
        const { email } = await newAccount('admin')
        const address = freshAddress()
        const { secret, emailCode } = await startSetupAtSignIn(email, address)
        await login(ctx.app, { email, address, emailCode, code: codeFor(secret, 5) }).expect(401)
        expect(noticesTo(email)).toEqual([])

        await login(ctx.app, { email, address, emailCode, code: codeFor(secret) }).expect(200)

        const notices = noticesTo(email)
        expect(notices).toHaveLength(1)
        expect(notices[0]!.subject).toBe('Two-factor sign-in was turned on for your staff account')
        expect(notices[0]!.text).toContain('Hello Kim Person,')
        expect(notices[0]!.text).toContain(`from the address ${address}.`)
        expect(notices[0]!.text).toMatch(/at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/)
        expect(notices[0]!.text).toContain(
          'If this was not you, someone else knows your password: ask an admin of your firm to disable your account and reset its two-factor sign-in now.',
        )
        // a later sign-in with the code changes nothing, and tells nobody
        await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
        expect(noticesTo(email)).toHaveLength(1)
      })

      it('e-mails the owner when the own page turns it on and off', async () => {
        const { email } = await newAccount('staff')
        const address = freshAddress()
        const cookie = sessionCookie(await login(ctx.app, { email, address }).expect(204))
        const { secret } = (await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD }).expect(200))
          .body as {
          secret: string
        }
        await ownRoute(ctx.app, cookie, '/confirm', { code: codeFor(secret), password: PASSWORD })
          .set('X-Forwarded-For', address)
          .expect(200)
        await ownRoute(ctx.app, cookie, '/disable', { code: codeFor(secret, 1) })
          .set('X-Forwarded-For', address)
          .expect(204)

        const notices = noticesTo(email)
        expect(notices.map((notice) => notice.subject)).toEqual([
          'Two-factor sign-in was turned on for your staff account',
          'Two-factor sign-in was turned off for your staff account',
        ])
        expect(notices[1]!.text).toContain(
          `from the address ${address}. Your account now signs in with its password alone.`,
        )
        expect(notices[1]!.text).toContain(
          'If this was not you, ask an admin of your firm to disable your account now.',
        )
      })
    })

    describe('sign-in with TOTP on', () => {
      it('asks for the code after a right password, and starts no session', async () => {
        const { email } = await adminWithTwoFactor()
        const res = await login(ctx.app, { email })

        expect(res.status).toBe(401)
        expect(res.body).toEqual({ error: { code: 'TWO_FACTOR_REQUIRED', message: CODE_REQUIRED_MESSAGE } })
        expect(res.headers['set-cookie']).toBeUndefined()
      })

      it('still refuses a wrong password first, whatever the code', async () => {
        const { email, secret } = await adminWithTwoFactor()
        const res = await login(ctx.app, { email, password: 'not the password', code: codeFor(secret, 1) })
        expect(res.status).toBe(401)
        expect(res.body.error.code).toBe('INVALID_PASSWORD')
      })

      it('signs in with the password and a current code', async () => {
        const { email, secret } = await adminWithTwoFactor()
        const res = await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
        await request(ctx.app).get('/api/staff/session').set('Cookie', sessionCookie(res)).expect(200)
      })

      it('refuses a wrong code and audits the failure naming the account', async () => {
        const { id, email } = await adminWithTwoFactor()
        const res = await login(ctx.app, { email, code: '000000' })

        expect(res.status).toBe(401)
        expect(res.body).toEqual({ error: { code: 'INVALID_CODE', message: INVALID_CODE_MESSAGE } })
        expect(res.headers['set-cookie']).toBeUndefined()
        expect((await auditOf(id)).at(-1)).toEqual({
          action: 'login_failure',
          detail: 'wrong code',
          actor: email,
        })
      })

      it('refuses a code that was already used, even within its time', async () => {
        const { email, secret } = await adminWithTwoFactor()
        const code = codeFor(secret, 1)
        await login(ctx.app, { email, code }).expect(204)

        const replay = await login(ctx.app, { email, code })
        expect(replay.status).toBe(401)
        expect(replay.body.error.code).toBe('INVALID_CODE')
      })

      it('refuses the code of the step before the last one used', async () => {
        const { email, secret } = await adminWithTwoFactor()
        await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
        expect((await login(ctx.app, { email, code: codeFor(secret, -1) })).status).toBe(401)
      })

      it('counts wrong codes toward the login limit of their address: the 11th attempt is 429', async () => {
        const address = freshAddress()
        // five for each of two accounts: a sixth for one would be paused by its own count
        for (const { email } of [await adminWithTwoFactor(), await adminWithTwoFactor()]) {
          for (let attempt = 1; attempt <= 5; attempt++) {
            const res = await login(ctx.app, { email, code: '000000', address })
            expect(res.body.error.code).toBe('INVALID_CODE')
          }
        }
        const { email } = await newAccount('staff')
        const res = await login(ctx.app, { email, address })

        expect(res.status).toBe(429)
        expect(res.body.error.message).toBe(LOGIN_RATE_LIMITED_MESSAGE)
      })
    })

    describe('recovery codes', () => {
      it('each sign in once in place of a code, typed in any case and with or without the dash', async () => {
        const { email, recoveryCodes } = await adminWithTwoFactor()
        const [first, second] = recoveryCodes as [string, string]

        await login(ctx.app, { email, code: first }).expect(204)
        const again = await login(ctx.app, { email, code: first })
        expect(again.status).toBe(401)
        expect(again.body.error.code).toBe('INVALID_CODE')
        await login(ctx.app, { email, code: ` ${second.replace('-', '').toUpperCase()} ` }).expect(204)
        expect((await login(ctx.app, { email, code: second })).status).toBe(401)
      })

      it('are all replaced by new ones made with a current code, and not with a recovery code', async () => {
        const { email, secret, recoveryCodes } = await adminWithTwoFactor()
        const cookie = sessionCookie(await login(ctx.app, { email, code: recoveryCodes[0] }).expect(204))

        const withRecovery = await ownRoute(ctx.app, cookie, '/recovery-codes', { code: recoveryCodes[1] })
        expect(withRecovery.status).toBe(400)
        expect(withRecovery.body.error.code).toBe('INVALID_CODE')
        const res = await ownRoute(ctx.app, cookie, '/recovery-codes', { code: codeFor(secret, 1) }).expect(
          200,
        )

        const fresh = res.body.recoveryCodes as string[]
        expect(fresh).toHaveLength(10)
        expect((await login(ctx.app, { email, code: recoveryCodes[2] })).status).toBe(401)
        await login(ctx.app, { email, code: fresh[0] }).expect(204)
        const status = await ownRoute(ctx.app, cookie, '').expect(200)
        expect(status.body).toEqual({ enabled: true, required: true, recoveryCodesLeft: 9 })
      })
    })

    describe('own set-up page', () => {
      /** A staff account (not covered by REQUIRE_2FA=admins) signed in with its password alone. */
      async function signedInStaff() {
        const { id, email } = await newAccount('staff')
        const cookie = sessionCookie(await login(ctx.app, { email }).expect(204))
        return { id, email, cookie }
      }

      it('turns TOTP on with a QR code and a confirming code, after which sign-in needs a code', async () => {
        const { id, email, cookie } = await signedInStaff()
        expect((await ownRoute(ctx.app, cookie, '').expect(200)).body).toEqual({
          enabled: false,
          required: false,
          recoveryCodesLeft: 0,
        })
        const setup = await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD }).expect(200)
        const secret = setup.body.secret as string
        expect(setup.body.qrCode).toMatch(/^<svg/)
        const wrong = await ownRoute(ctx.app, cookie, '/confirm', {
          code: codeFor(secret, 4),
          password: PASSWORD,
        })
        expect(wrong.status).toBe(400)
        expect(wrong.body.error.code).toBe('INVALID_CODE')

        const confirmed = await ownRoute(ctx.app, cookie, '/confirm', {
          code: codeFor(secret),
          password: PASSWORD,
        }).expect(200)

        expect(confirmed.body.recoveryCodes).toHaveLength(10)
        expect((await ownRoute(ctx.app, cookie, '').expect(200)).body).toEqual({
          enabled: true,
          required: false,
          recoveryCodesLeft: 10,
        })
        expect((await login(ctx.app, { email })).body.error.code).toBe('TWO_FACTOR_REQUIRED')
        await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
        expect((await auditOf(id)).map((row) => row.action)).toContain('two_factor_enabled')
      })

      it('refuses to confirm a set-up that was never started', async () => {
        const { cookie } = await signedInStaff()
        const res = await ownRoute(ctx.app, cookie, '/confirm', { code: '123456', password: PASSWORD })
        expect(res.status).toBe(400)
        expect(res.body.error.message).toBe('start the set-up first: no QR code was shown')
      })

      it('turns TOTP off with a code, ending the other sessions, and sign-in needs the password alone', async () => {
        const { id, email, cookie } = await signedInStaff()
        const { secret } = (await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD }).expect(200))
          .body as {
          secret: string
        }
        const confirmed = await ownRoute(ctx.app, cookie, '/confirm', {
          code: codeFor(secret),
          password: PASSWORD,
        }).expect(200)
        const [recoveryCode] = confirmed.body.recoveryCodes as [string]
        const other = sessionCookie(await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204))
        const wrong = await ownRoute(ctx.app, cookie, '/disable', { code: '000000' })
        expect(wrong.status).toBe(400)
        expect(wrong.body.error.code).toBe('INVALID_CODE')

        const off = await ownRoute(ctx.app, cookie, '/disable', { code: recoveryCode })

        expect(off.status).toBe(204)
        await request(ctx.app).get('/api/staff/session').set('Cookie', other).expect(401)
        await request(ctx.app).get('/api/staff/session').set('Cookie', sessionCookie(off)).expect(200)
        expect(await accountRow(id)).toEqual({ totp_secret: null, totp_pending_secret: null })
        await login(ctx.app, { email }).expect(204)
        expect((await auditOf(id)).map((row) => row.action)).toContain('two_factor_disabled')
      })

      it('pauses the account after five wrong codes, from a session too', async () => {
        const { email, cookie } = await signedInStaff()
        const { secret } = (await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD }).expect(200))
          .body as { secret: string }
        for (let attempt = 1; attempt <= 5; attempt++) {
          const res = await ownRoute(ctx.app, cookie, '/confirm', { code: '000000', password: PASSWORD })
          expect(res.body.error.code).toBe('INVALID_CODE')
        }
        const res = await ownRoute(ctx.app, cookie, '/confirm', { code: codeFor(secret), password: PASSWORD })

        expect(res.status).toBe(429)
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
        expect(res.body.error.message).toMatch(/^Too many failed sign-ins to this account/)
        expect((await login(ctx.app, { email })).status).toBe(429)
      })

      it('asks for the current password to start a set-up, and sets nothing up without it', async () => {
        const { id, cookie } = await signedInStaff()
        const without = await ownRoute(ctx.app, cookie, '/setup', {})
        expect(without.status).toBe(403)
        expect(without.body.error).toEqual({
          code: 'INVALID_PASSWORD',
          message: 'type your current password to set up two-factor sign-in',
        })
        const wrong = await ownRoute(ctx.app, cookie, '/setup', { password: 'not the password' })
        expect(wrong.status).toBe(403)
        expect(wrong.body.error).toEqual({
          code: 'INVALID_PASSWORD',
          message: 'the password is not right: type the password you sign in with',
        })
        expect(wrong.body.secret).toBeUndefined()
        expect(await accountRow(id)).toEqual({ totp_secret: null, totp_pending_secret: null })
        expect((await auditOf(id)).at(-1)).toMatchObject({
          action: 'login_failure',
          detail: 'wrong password at two-factor set-up',
        })

        const setup = await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD }).expect(200)
        expect(setup.body.secret).toMatch(/^[A-Z2-7]{32}$/)
      })

      it('asks for the current password again to turn it on, and a right code alone turns nothing on', async () => {
        const { id, cookie } = await signedInStaff()
        const { secret } = (await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD }).expect(200))
          .body as { secret: string }
        const without = await ownRoute(ctx.app, cookie, '/confirm', { code: codeFor(secret) })
        expect(without.status).toBe(403)
        expect(without.body.error.message).toBe('type your current password to set up two-factor sign-in')
        const wrong = await ownRoute(ctx.app, cookie, '/confirm', {
          code: codeFor(secret),
          password: 'not the password',
        })
        expect(wrong.status).toBe(403)
        expect(wrong.body.error.code).toBe('INVALID_PASSWORD')
        expect(wrong.body.recoveryCodes).toBeUndefined()
        expect((await accountRow(id)).totp_secret).toBeNull()

        const confirmed = await ownRoute(ctx.app, cookie, '/confirm', {
          code: codeFor(secret),
          password: PASSWORD,
        }).expect(200)
        expect(confirmed.body.recoveryCodes).toHaveLength(10)
      })

      it('counts wrong passwords at set-up toward the pause of sign-in', async () => {
        const { email, cookie } = await signedInStaff()
        for (let attempt = 1; attempt <= 5; attempt++) {
          await ownRoute(ctx.app, cookie, '/setup', { password: `guess ${attempt}` }).expect(403)
        }
        const res = await ownRoute(ctx.app, cookie, '/setup', { password: PASSWORD })
        expect(res.status).toBe(429)
        expect(res.body.secret).toBeUndefined()
        expect((await login(ctx.app, { email })).status).toBe(429)
      })

      it('takes its migration down and up again, and an account with TOTP on still needs its code', async () => {
        const { email, secret } = await adminWithTwoFactor()
        const db = ctx.db as unknown as Kysely<unknown>
        const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } })
        expect((await migrator.migrateTo('2026_11_27_1000_create_staff_accounts')).error).toBeUndefined()
        expect((await migrator.migrateToLatest()).error).toBeUndefined()

        expect((await login(ctx.app, { email })).body.error.code).toBe('TWO_FACTOR_REQUIRED')
        await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
      })

      it('will not turn TOTP off for an account REQUIRE_2FA covers', async () => {
        const { email, secret } = await adminWithTwoFactor()
        const cookie = sessionCookie(await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204))
        const res = await ownRoute(ctx.app, cookie, '/disable', { code: '000000' })
        expect(res.status).toBe(403)
        expect(res.body.error.message).toMatch(/REQUIRE_2FA/)
      })
    })
  })

  describe(`${dialect}: REQUIRE_2FA`, SIGN_INS_TIMEOUT, () => {
    const policies: RequireTwoFactor[] = ['all', 'admins', 'none']
    const contexts = new Map<RequireTwoFactor, TestContext>()

    beforeAll(async () => {
      for (const policy of policies)
        contexts.set(policy, await createTestContext(dialect, { requireTwoFactor: policy }))
    })
    afterAll(async () => {
      for (const ctx of contexts.values()) await ctx.close()
    })

    async function firstAnswer(policy: RequireTwoFactor, role: StaffRole): Promise<number | string> {
      const ctx = contexts.get(policy)!
      const email = `${policy}-${role}-${nextAccount++}@firm.test`
      await createAccount(ctx.db, { email, name: 'Lee', role, apps: [], password: PASSWORD })
      const res = await login(ctx.app, { email })
      return res.status === 204 ? 204 : (res.body.error.code as string)
    }

    it('all: every account sets up TOTP before its first session', async () => {
      expect(await firstAnswer('all', 'admin')).toBe('TWO_FACTOR_EMAIL_CODE_REQUIRED')
      expect(await firstAnswer('all', 'staff')).toBe('TWO_FACTOR_EMAIL_CODE_REQUIRED')
    })

    it('admins: admins set up TOTP, staff accounts sign in with the password alone', async () => {
      expect(await firstAnswer('admins', 'admin')).toBe('TWO_FACTOR_EMAIL_CODE_REQUIRED')
      expect(await firstAnswer('admins', 'staff')).toBe(204)
    })

    it('none: every account signs in with the password alone', async () => {
      expect(await firstAnswer('none', 'admin')).toBe(204)
      expect(await firstAnswer('none', 'staff')).toBe(204)
    })
  })
}
