import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVITE_GONE_MESSAGE } from '../../../server/accounts/accept-invite.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { invitationTo } from '../support/agreement-link.ts'
import { ADMIN_EMAIL, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff, sessionCookie, staffLogin } from '../support/staff-sign-in.ts'

const SITE = 'dashboard.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const NEW_PASSWORD = 'a paralegal passphrase'
let nextAccount = 1

function freshEmail(): string {
  return `person${nextAccount++}@firm.test`
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: staff accounts`, () => {
    let ctx: TestContext
    let admin: string
    let adminId: number

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      adminId = Number(
        (
          await ctx.db
            .selectFrom('staff_accounts')
            .select('id')
            .where('email', '=', ADMIN_EMAIL)
            .executeTakeFirstOrThrow()
        ).id,
      )
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const asAdmin = {
      get: (url: string) => request(ctx.app).get(url).set(SAME_SITE).set('Cookie', admin),
      post: (url: string, body?: object) =>
        request(ctx.app)
          .post(url)
          .set(SAME_SITE)
          .set('Cookie', admin)
          .send(body ?? {}),
      put: (url: string, body: object) =>
        request(ctx.app).put(url).set(SAME_SITE).set('Cookie', admin).send(body),
    }
    const invite = (body: object) => asAdmin.post('/api/staff/accounts', body)
    const accept = (body: object) =>
      request(ctx.app).post('/api/staff/invites/accept').set(SAME_SITE).send(body)
    const check = (token: string) =>
      request(ctx.app).post('/api/staff/invites/check').set(SAME_SITE).send({ token })
    const auditOf = (action: string) =>
      ctx.db
        .selectFrom('audit_log')
        .select(['action', 'actor', 'detail'])
        .where('action', '=', action)
        .orderBy('id')
        .execute()
    const countAccounts = async () =>
      (await ctx.db.selectFrom('staff_accounts').select('id').execute()).length
    async function invited(apps = [{ app: 'brigit', canExport: false }]) {
      const email = freshEmail()
      const res = await invite({ email, name: 'Pat Paralegal', role: 'staff', apps }).expect(201)
      return { email, id: res.body.account.id as number, ...invitationTo(ctx.dataDir, email) }
    }

    describe('inviting', () => {
      it('creates the account without a password, e-mails a one-time link and audits it as the admin', async () => {
        const email = freshEmail()
        const res = await invite({
          email: email.toUpperCase(),
          name: ' Pat Paralegal ',
          role: 'staff',
          apps: [
            { app: 'brigit', canExport: true },
            { app: 'earnin', canExport: false, canPay: true },
          ],
        })

        expect(res.status).toBe(201)
        expect(res.body).toEqual({
          emailed: true,
          account: {
            id: expect.any(Number),
            email,
            name: 'Pat Paralegal',
            role: 'staff',
            apps: [
              { app: 'brigit', canExport: true },
              { app: 'earnin', canExport: false, canPay: true },
            ],
            twoFactor: false,
            disabled: false,
            invitePending: true,
          },
        })
        const { url, token } = invitationTo(ctx.dataDir, email)
        // PUBLIC_URL unset: the server's own address, not the Host the admin's request came with
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/staff\/invite#token=/)
        const list = await asAdmin.get('/api/staff/accounts').expect(200)
        expect(list.body.accounts).toContainEqual(res.body.account)
        expect(list.body.apps).toContainEqual({ slug: 'brigit', name: expect.any(String) })
        const [entry] = (await auditOf('account_invited')).filter((row) => row.detail?.startsWith(email))
        expect(entry).toEqual({
          action: 'account_invited',
          actor: ADMIN_EMAIL,
          detail: `${email}: role staff, apps brigit (export), earnin (payments)`,
        })
        expect(JSON.stringify(await ctx.db.selectFrom('audit_log').select('detail').execute())).not.toContain(
          token,
        )
      })

      it('refuses a second account of the same e-mail, in any letter case', async () => {
        const { email } = await invited()
        const before = await countAccounts()
        const res = await invite({ email: email.toUpperCase(), name: 'Again', role: 'staff', apps: [] })
        expect(res.status).toBe(409)
        expect(res.body.error).toEqual({ code: 'EMAIL_TAKEN', message: expect.stringContaining(email) })
        expect(await countAccounts()).toBe(before)
      })

      it.each([
        [{ role: 'staff', apps: [{ app: 'nosuchapp', canExport: false }] }, /unknown app "nosuchapp"/],
        [
          { role: 'staff', apps: [{ app: 'brigit', canExport: false, canPay: 'yes' }] },
          /"canPay" of "brigit" must be true or false/,
        ],
        [{ role: 'owner', apps: [] }, /"role" must be "admin" or "staff"/],
        [{ email: 'not an address', role: 'staff', apps: [] }, /"email" must be an e-mail address/],
        [{ name: '', role: 'staff', apps: [] }, /"name" must be/],
      ])('refuses %j with a 400 naming the problem, and creates nothing', async (fields, message) => {
        const before = await countAccounts()
        const res = await invite({ email: freshEmail(), name: 'Pat', ...fields })
        expect(res.status).toBe(400)
        expect(res.body.error).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(message) })
        expect(await countAccounts()).toBe(before)
      })

      it('re-sends an invitation with a new link, and the older link stops working', async () => {
        const first = await invited()
        const res = await asAdmin.post(`/api/staff/accounts/${first.id}/invite`).expect(200)
        expect(res.body.emailed).toBe(true)
        const second = invitationTo(ctx.dataDir, first.email)

        expect(second.token).not.toBe(first.token)
        expect((await check(first.token)).status).toBe(410)
        expect((await check(second.token)).body).toEqual({
          kind: 'invite',
          email: first.email,
          name: 'Pat Paralegal',
        })
        expect(await auditOf('invite_resent')).toContainEqual({
          action: 'invite_resent',
          actor: ADMIN_EMAIL,
          detail: first.email,
        })
      })

      it('refuses to re-send the invitation of an account that has its password', async () => {
        const res = await asAdmin.post(`/api/staff/accounts/${adminId}/invite`)
        expect(res.status).toBe(409)
        expect(res.body.error.message).toMatch(/already accepted/)
      })
    })

    describe('an invitation link', () => {
      it('sets the password once: the person signs in with it, and the link never works again', async () => {
        const { email, token } = await invited()
        const tooShort = await accept({ token, password: 'short' })
        expect(tooShort.status).toBe(400)
        expect(tooShort.body.error.message).toMatch(/at least 12 characters/)

        // REQUIRE_2FA does not cover the account here, so no two-factor set-up code comes with the answer
        expect((await accept({ token, password: NEW_PASSWORD }).expect(200)).body).toEqual({})
        const again = await accept({ token, password: 'another passphrase' })

        expect(again.status).toBe(410)
        expect(again.body.error).toEqual({ code: 'LINK_EXPIRED', message: INVITE_GONE_MESSAGE })
        expect((await check(token)).status).toBe(410)
        await staffLogin(ctx.app, { email, password: NEW_PASSWORD }).expect(204)
        expect(await auditOf('invite_accepted')).toContainEqual({
          action: 'invite_accepted',
          actor: email,
          detail: email,
        })
        const list = await asAdmin.get('/api/staff/accounts').expect(200)
        expect(list.body.accounts).toContainEqual(expect.objectContaining({ email, invitePending: false }))
      })

      it('never works after 48 hours', async () => {
        const { id, token } = await invited()
        await ctx.db
          .updateTable('staff_invites')
          .set({ expires_at: Date.now() - 1000 })
          .where('account_id', '=', id)
          .execute()

        const checked = await check(token)
        const accepted = await accept({ token, password: NEW_PASSWORD })
        expect(checked.status).toBe(410)
        expect(accepted.status).toBe(410)
        expect(accepted.body.error.message).toMatch(/ask an admin of your firm to send you a new invitation/)
        const row = await ctx.db
          .selectFrom('staff_accounts')
          .select('password_hash')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        expect(row.password_hash).toBeNull()
      })

      it('refuses a link from another site', async () => {
        const { token } = await invited()
        const res = await accept({ token, password: NEW_PASSWORD }).set('Origin', 'https://evil.example')
        expect(res.status).toBe(403)
        expect((await check(token)).status).toBe(200)
      })
    })

    describe('changing an account', () => {
      it('changes role and apps, and audits what changed', async () => {
        const { id, email } = await invited()
        const res = await asAdmin
          .put(`/api/staff/accounts/${id}/access`, {
            role: 'staff',
            apps: [{ app: 'earnin', canExport: true }],
          })
          .expect(200)
        expect(res.body).toMatchObject({ email, role: 'staff', apps: [{ app: 'earnin', canExport: true }] })
        expect(await auditOf('account_changed')).toContainEqual({
          action: 'account_changed',
          actor: ADMIN_EMAIL,
          detail: `${email}: role staff, apps earnin (export)`,
        })
        const unknown = await asAdmin.put(`/api/staff/accounts/${id}/access`, {
          role: 'staff',
          apps: [{ app: 'nosuchapp', canExport: false }],
        })
        expect(unknown.status).toBe(400)
      })

      it('disables and re-enables an account, each audited', async () => {
        const { id, email } = await invited()
        const disabled = await asAdmin.post(`/api/staff/accounts/${id}/disable`).expect(200)
        expect(disabled.body.disabled).toBe(true)
        const enabled = await asAdmin.post(`/api/staff/accounts/${id}/enable`).expect(200)
        expect(enabled.body.disabled).toBe(false)
        expect(await auditOf('account_disabled')).toContainEqual(
          expect.objectContaining({ actor: ADMIN_EMAIL, detail: email }),
        )
        expect(await auditOf('account_enabled')).toContainEqual(
          expect.objectContaining({ actor: ADMIN_EMAIL, detail: email }),
        )
      })

      it('resets two-factor sign-in: secret, pending secret, e-mailed set-up code and recovery codes go', async () => {
        const { id, email } = await invited()
        await ctx.db
          .updateTable('staff_accounts')
          .set({
            totp_secret: 'JBSWY3DPEHPK3PXP',
            totp_pending_secret: 'KRSXG5CTMVRXEZLU',
            totp_setup_code_hash: 'e'.repeat(64),
            totp_setup_code_expires_at: Date.now() + 60_000,
          })
          .where('id', '=', id)
          .execute()
        await ctx.db
          .insertInto('staff_recovery_codes')
          .values({ account_id: id, code_hash: 'f'.repeat(64), used_at: null })
          .execute()

        const res = await asAdmin.post(`/api/staff/accounts/${id}/reset-two-factor`).expect(200)

        expect(res.body.twoFactor).toBe(false)
        const row = await ctx.db
          .selectFrom('staff_accounts')
          .select(['totp_secret', 'totp_pending_secret', 'totp_setup_code_hash'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        expect(row).toEqual({ totp_secret: null, totp_pending_secret: null, totp_setup_code_hash: null })
        const codes = await ctx.db
          .selectFrom('staff_recovery_codes')
          .where('account_id', '=', id)
          .selectAll()
          .execute()
        expect(codes).toEqual([])
        expect(await auditOf('two_factor_reset')).toContainEqual(
          expect.objectContaining({ actor: ADMIN_EMAIL, detail: email }),
        )
      })

      it.each([
        ['disable', 'post', 'disable', {}, /cannot disable your own account/],
        ['demote', 'put', 'access', { role: 'staff', apps: [] }, /cannot take away your own admin role/],
        ['reset the two-factor sign-in of', 'post', 'reset-two-factor', {}, /your account page/],
      ] as const)('refuses to let an admin %s themselves', async (_what, method, action, body, message) => {
        const res = await asAdmin[method](`/api/staff/accounts/${adminId}/${action}`, body)
        expect(res.status).toBe(409)
        expect(res.body.error).toEqual({ code: 'CONFLICT', message: expect.stringMatching(message) })
        await asAdmin.get('/api/staff/session').expect(200)
      })

      it('leaves an admin who saves their own access unchanged signed in', async () => {
        await asAdmin.put(`/api/staff/accounts/${adminId}/access`, { role: 'admin', apps: [] }).expect(200)
        await asAdmin.get('/api/staff/session').expect(200)
      })

      it('answers 404 for an account that does not exist', async () => {
        const res = await asAdmin.post('/api/staff/accounts/999999/disable')
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('NOT_FOUND')
      })

      it('answers 403 to a staff account and changes nothing', async () => {
        const email = freshEmail()
        await createAccount(ctx.db, {
          email,
          name: 'Sam Staff',
          role: 'staff',
          apps: [{ app: 'brigit', canExport: true }],
          password: NEW_PASSWORD,
        })
        const cookie = await loginStaff(ctx.app, { site: SITE, email, password: NEW_PASSWORD })
        const before = await countAccounts()
        const res = await request(ctx.app)
          .post('/api/staff/accounts')
          .set(SAME_SITE)
          .set('Cookie', cookie)
          .send({ email: freshEmail(), name: 'Sneaky', role: 'admin', apps: [] })
        expect(res.status).toBe(403)
        expect(await countAccounts()).toBe(before)
        const apps = await request(ctx.app).get('/api/staff/my-apps').set('Cookie', cookie).expect(200)
        expect(apps.body.apps).toEqual([{ slug: 'brigit', name: expect.any(String), canExport: true }])
      })

      it('keeps one enabled admin when the last two disable each other at the same moment', async () => {
        const admins = await Promise.all(
          ['Bo', 'Cy'].map(async (name) => {
            const email = freshEmail()
            const id = await createAccount(ctx.db, {
              email,
              name,
              role: 'admin',
              apps: [],
              password: NEW_PASSWORD,
            })
            return { id, cookie: await loginStaff(ctx.app, { site: SITE, email, password: NEW_PASSWORD }) }
          }),
        )
        const [bo, cy] = admins as [(typeof admins)[0], (typeof admins)[0]]
        const enabledAdmins = async () =>
          (
            await ctx.db
              .selectFrom('staff_accounts')
              .select('id')
              .where('role', '=', 'admin')
              .where('disabled_at', 'is', null)
              .execute()
          ).map(({ id }) => Number(id))
        // the first admin steps aside for this test (its session stays, for the tests after it)
        await ctx.db.updateTable('staff_accounts').set({ disabled_at: 1 }).where('id', '=', adminId).execute()
        try {
          const disable = (who: { cookie: string }, whom: { id: number }) =>
            request(ctx.app)
              .post(`/api/staff/accounts/${whom.id}/disable`)
              .set(SAME_SITE)
              .set('Cookie', who.cookie)
          const answers = await Promise.all([disable(bo, cy), disable(cy, bo)])
          // one wins; the other is refused as the last admin, or finds its own session ended
          expect(answers.map((res) => res.status).filter((status) => status === 200)).toHaveLength(1)
          expect(answers.map((res) => res.status)).toContainEqual(
            expect.toSatisfy((s) => s === 409 || s === 401),
          )
          expect(await enabledAdmins()).toHaveLength(1)
        } finally {
          await ctx.db
            .updateTable('staff_accounts')
            .set({ disabled_at: null })
            .where('id', '=', adminId)
            .execute()
          await ctx.db
            .updateTable('staff_accounts')
            .set({ disabled_at: 1 })
            .where('id', 'in', [bo.id, cy.id])
            .execute()
        }
      })
    })

    describe('own password', () => {
      it('changes with the current one, ends every other session and keeps this browser signed in', async () => {
        const email = freshEmail()
        await createAccount(ctx.db, {
          email,
          name: 'Sam Member',
          role: 'staff',
          apps: [],
          password: NEW_PASSWORD,
        })
        const here = await loginStaff(ctx.app, { site: SITE, email, password: NEW_PASSWORD })
        const elsewhere = await loginStaff(ctx.app, { site: SITE, email, password: NEW_PASSWORD })
        const change = (body: object) =>
          request(ctx.app).post('/api/staff/account/password').set(SAME_SITE).set('Cookie', here).send(body)

        const wrong = await change({ currentPassword: 'not the password', newPassword: 'a fresh passphrase' })
        expect(wrong.status).toBe(400)
        expect(wrong.body.error.message).toBe('the current password is not right')
        const short = await change({ currentPassword: NEW_PASSWORD, newPassword: 'short' })
        expect(short.status).toBe(400)
        expect(short.body.error.message).toMatch(/at least 12 characters/)

        const res = await change({ currentPassword: NEW_PASSWORD, newPassword: 'a fresh passphrase' })

        expect(res.status).toBe(204)
        const fresh = sessionCookie(res)
        await request(ctx.app).get('/api/staff/session').set('Cookie', fresh).expect(200)
        expect((await request(ctx.app).get('/api/staff/session').set('Cookie', elsewhere)).status).toBe(401)
        expect((await request(ctx.app).get('/api/staff/session').set('Cookie', here)).status).toBe(401)
        expect(await auditOf('password_changed')).toContainEqual({
          action: 'password_changed',
          actor: email,
          detail: email,
        })
      })
    })
  })
}
