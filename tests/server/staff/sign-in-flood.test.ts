import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SIGN_IN_BUSY_MESSAGE } from '../../../server/staff/scrypt-queue.ts'
import { createTestContext, DIALECTS, makeClaimData, makePng, type TestContext } from '../support/helpers.ts'
import { staffLogin } from '../support/staff-sign-in.ts'

// the queue fills only while each hash outlasts the flood's arrival: N=2^14 here, about 0.15 s a hash
// (the rest of the suite hashes at N=2^10, vitest.config.ts), set before the first hash reads it
vi.stubEnv('PASSWORD_HASH_COST', '14')
// the files after this one in its worker hash at the suite's cost again
afterAll(() => {
  vi.unstubAllEnvs()
})

/** Up to 18 hashes, two at a time, on a busy machine. */
const SIGN_INS_TIMEOUT = { timeout: 60_000 }

for (const dialect of DIALECTS) {
  describe(`${dialect}: password hashes at once`, SIGN_INS_TIMEOUT, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('answers a flood of sign-ins beyond the queue 503 with Retry-After, while a claim sent meanwhile is stored', async () => {
      const signIns = Array.from({ length: 40 }, (_, i) =>
        staffLogin(ctx.app, { email: `flood${i}@firm.test`, password: `flood guess ${i}` }).then(
          (res) => res,
        ),
      )
      const claim = request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field('data', JSON.stringify(makeClaimData({ phoneNumber: '(555) 223-7001' })))
        .attach('screenshot', makePng({ width: 40, height: 20 }), 'statement.png')
        .then((res) => res)

      const answers = await Promise.all(signIns)
      expect((await claim).status).toBe(201)
      const busy = answers.filter((res) => res.status === 503)
      expect(busy.length).toBeGreaterThan(0)
      for (const res of busy) {
        expect(res.body.error).toEqual({ code: 'BUSY', message: SIGN_IN_BUSY_MESSAGE })
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      }
      expect(answers.filter((res) => res.status !== 503).every((res) => res.status === 401)).toBe(true)
      // the queue empties again: a sign-in after the flood is checked
      await staffLogin(ctx.app, { email: 'after@firm.test', password: 'after the flood' }).expect(401)
    })
  })
}
