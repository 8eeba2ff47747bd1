import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import {
  keyOf,
  sealClearTotpSecrets,
  sealTotpSecret,
  TWO_FACTOR_KEY_FILE,
} from '../../../server/staff/two-factor/two-factor-key.ts'
import { newTotpSecret } from '../../../server/staff/two-factor/totp.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import {
  codeFor,
  SAME_SITE,
  sessionCookie,
  STAFF_PASSWORD,
  staffLogin as login,
} from '../support/staff-sign-in.ts'

const PASSWORD = STAFF_PASSWORD
let nextAccount = 1

for (const dialect of DIALECTS) {
  describe(`${dialect}: TOTP secrets sealed under DATA_DIR/two-factor.key`, { timeout: 120_000 }, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    async function newAccount(): Promise<{ id: number; email: string }> {
      const email = `sealed${nextAccount++}@firm.test`
      const id = await createAccount(ctx.db, {
        email,
        name: 'Sam Sealed',
        role: 'staff',
        apps: [],
        password: PASSWORD,
      })
      return { id, email }
    }

    async function storedSecrets(id: number) {
      return ctx.db
        .selectFrom('staff_accounts')
        .select(['totp_secret', 'totp_pending_secret'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    }

    /** Writes a secret into the row as it is, as an older version (or a changed key) left it. */
    async function storeSecret(id: number, stored: string) {
      await ctx.db.updateTable('staff_accounts').set({ totp_secret: stored }).where('id', '=', id).execute()
    }

    it('keeps no base32 secret in the database once set up, and signs in with the code', async () => {
      const { id, email } = await newAccount()
      const cookie = sessionCookie(await login(ctx.app, { email }).expect(204))
      const own = (route: string, body: object) =>
        request(ctx.app).post(`/api/staff/two-factor${route}`).set(SAME_SITE).set('Cookie', cookie).send(body)
      const { secret } = (await own('/setup', { password: PASSWORD }).expect(200)).body as { secret: string }
      const pending = (await storedSecrets(id)).totp_pending_secret!
      expect(pending).not.toContain(secret)
      expect(pending).toMatch(new RegExp(`^totp1:${ctx.twoFactorKey.id}:`))

      await own('/confirm', { password: PASSWORD, code: codeFor(secret) }).expect(200)

      const { totp_secret: stored } = await storedSecrets(id)
      expect(stored).toMatch(new RegExp(`^totp1:${ctx.twoFactorKey.id}:[\\w-]+:[\\w-]+$`))
      expect(stored).not.toContain(secret)
      expect(stored).not.toMatch(/^[A-Z2-7]+=*$/)
      await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)

      const keyFile = path.join(ctx.dataDir, TWO_FACTOR_KEY_FILE)
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600)
      expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(ctx.twoFactorKey.key.toString('hex'))
    })

    it('seals a secret stored in clear at start-up, once, and the account still signs in with its code', async () => {
      const { id, email } = await newAccount()
      const secret = newTotpSecret()
      await storeSecret(id, secret)

      expect(await sealClearTotpSecrets(ctx.db, ctx.twoFactorKey)).toBe(1)
      const { totp_secret: sealed } = await storedSecrets(id)
      expect(sealed).toMatch(/^totp1:/)
      expect(sealed).not.toContain(secret)
      expect(await sealClearTotpSecrets(ctx.db, ctx.twoFactorKey)).toBe(0)
      expect((await storedSecrets(id)).totp_secret).toBe(sealed)

      await login(ctx.app, { email, code: codeFor(secret, 1) }).expect(204)
    })

    it('refuses the sign-in, saying why, when the secret was sealed with another key', async () => {
      const { id, email } = await newAccount()
      const secret = newTotpSecret()
      const otherKey = keyOf(crypto.randomBytes(32).toString('hex'))
      await storeSecret(id, sealTotpSecret(otherKey, secret))

      const res = await login(ctx.app, { email, code: codeFor(secret, 1) })

      expect(res.status).toBe(500)
      expect(res.body.error.message).toBe(
        `two-factor codes cannot be checked (the secret was sealed with key ${otherKey.id}, and this server's key is ${ctx.twoFactorKey.id}): an admin must restore DATA_DIR/two-factor.key from its backup`,
      )
      expect(res.headers['set-cookie']).toBeUndefined()

      // the same key id with a changed sealed text is refused too
      const forged = sealTotpSecret(ctx.twoFactorKey, secret).replace(/.$/, (last) =>
        last === 'A' ? 'B' : 'A',
      )
      await storeSecret(id, forged)
      const changed = await login(ctx.app, { email, code: codeFor(secret, 2) })
      expect(changed.status).toBe(500)
      expect(changed.body.error.message).toMatch(/does not open with this server’s key/)
    })
  })
}
