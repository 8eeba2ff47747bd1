import type { Express } from 'express'
import { Secret, TOTP } from 'otpauth'
import request from 'supertest'

/** The site the staff requests come from, same-origin as the staff routes want. */
export const SAME_SITE = { Host: 'dashboard.test', Origin: 'http://dashboard.test' }
/** The password every account of these tests is made with. */
export const STAFF_PASSWORD = 'a long enough password'

let nextAddress = 0

/**
 * A client address of its own for each request (trust proxy believes loopback's X-Forwarded-For): the
 * sign-in limit counts per address, and the per-account pause must not lean on it.
 */
export function freshAddress(): string {
  const n = nextAddress++
  return `198.18.${Math.floor(n / 250)}.${(n % 250) + 1}`
}

/** The authenticator app's code for the secret, `steps` 30-second steps from now. */
export function codeFor(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 })
}

/** POST /api/staff/login from a fresh address (or the one given), with STAFF_PASSWORD unless told. */
export function staffLogin(
  app: Express,
  {
    email,
    code,
    emailCode,
    password = STAFF_PASSWORD,
    address = freshAddress(),
  }: {
    email: string
    code?: string
    /** The code of the set-up e-mail. */
    emailCode?: string
    password?: string
    address?: string
  },
) {
  return request(app)
    .post('/api/staff/login')
    .set(SAME_SITE)
    .set('X-Forwarded-For', address)
    .send({
      email,
      password,
      ...(code === undefined ? {} : { code }),
      ...(emailCode === undefined ? {} : { emailCode }),
    })
}

/** The staff_session cookie a sign-in set, as a Cookie header's value. */
export function sessionCookie(res: request.Response): string {
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((line) => line.startsWith('staff_session='))
  if (!cookie) throw new Error('login set no staff_session cookie')
  return cookie.split(';')[0]!
}
