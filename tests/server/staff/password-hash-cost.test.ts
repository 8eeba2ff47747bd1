import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { readServerConfig } from '../../../server/config.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import {
  DEFAULT_PASSWORD_HASH_COST,
  hashPassword,
  readPasswordHashCost,
  verifyPassword,
} from '../../../server/staff/password-hash.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { STAFF_PASSWORD, staffLogin } from '../support/staff-sign-in.ts'

// the rest of the suite hashes at a low cost (vitest.config.ts); this file hashes at the product's own,
// set before the first hash reads it
vi.stubEnv('PASSWORD_HASH_COST', String(DEFAULT_PASSWORD_HASH_COST))
// the files after this one in its worker hash at the suite's cost again
afterAll(() => {
  vi.unstubAllEnvs()
})

describe('PASSWORD_HASH_COST', () => {
  it('is scrypt at N = 2^17 unless set, and takes 10..20', () => {
    expect(readPasswordHashCost({})).toBe(17)
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(17)
    expect(readPasswordHashCost({ PASSWORD_HASH_COST: '12' })).toBe(12)
    expect(readPasswordHashCost({ PASSWORD_HASH_COST: '20' })).toBe(20)
  })

  it('refuses anything else at start, naming the setting and the range', () => {
    for (const bad of ['9', '21', '16.5', 'low']) {
      expect(() => readServerConfig({ PASSWORD_HASH_COST: bad })).toThrow(
        `PASSWORD_HASH_COST "${bad}" is not a whole number from 10 to 20`,
      )
    }
  })

  it('stores the cost in the hash, so a hash made at one cost verifies at any other', async () => {
    const hash = await hashPassword('correct horse battery staple')
    const [scheme, n, r, p] = hash.split('$')
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual(['scrypt', 2 ** 17, 8, 1])
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true)
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false)
  })
})

for (const dialect of DIALECTS) {
  describe(`${dialect}: a hash weaker than today's`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('is replaced at the next sign-in by one at N=2^17', async () => {
      const email = 'member@firm.test'
      const id = await createAccount(ctx.db, {
        email,
        name: 'Sam Member',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
        password: STAFF_PASSWORD,
      })
      // a hash really made at N=2^14, as the shared password's were
      const old = await legacyHash(STAFF_PASSWORD)
      await ctx.db.updateTable('staff_accounts').set({ password_hash: old }).where('id', '=', id).execute()

      await staffLogin(ctx.app, { email }).expect(204)
      const { password_hash } = await ctx.db
        .selectFrom('staff_accounts')
        .select('password_hash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(password_hash).toMatch(/^scrypt\$131072\$8\$1\$/)
      await staffLogin(ctx.app, { email }).expect(204)
    })
  })
}

/** scrypt at N=2^14, the parameters of the shared password before named accounts. */
function legacyHash(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  return new Promise((resolve, reject) =>
    crypto.scrypt(password, salt, 32, { N: 16384, r: 8, p: 1 }, (error, hash) =>
      error
        ? reject(error)
        : resolve(`scrypt$16384$8$1$${salt.toString('base64')}$${hash.toString('base64')}`),
    ),
  )
}
