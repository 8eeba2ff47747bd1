import { describe, expect, it } from 'vitest'
import { readServerConfig } from '../../server/config.ts'
import {
  DEFAULT_PASSWORD_HASH_COST,
  hashPassword,
  readPasswordHashCost,
  verifyPassword,
} from '../../server/staff/password-hash.ts'

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
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual(['scrypt', 2 ** readPasswordHashCost(), 8, 1])
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true)
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false)
  })
})
