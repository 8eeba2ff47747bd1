import type { Express } from 'express'
import { Secret, TOTP } from 'otpauth'
import request from 'supertest'
import { createAccount, type NewAccount } from '../../../server/staff/staff-accounts.ts'
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestContext } from './helpers.ts'

/** The site of the staff requests when a test names none. */
const DASHBOARD_SITE = 'dashboard.test'
/** The site the staff requests come from, same-origin as the staff routes want. */
export const SAME_SITE = { Host: DASHBOARD_SITE, Origin: `http://${DASHBOARD_SITE}` }
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

/**
 * POST /api/staff/login as the dashboard sends it (from the site's own origin, `site`, dashboard.test
 * unless told), from a fresh address (or the one given), with STAFF_PASSWORD unless told.
 */
export function staffLogin(
  app: Express,
  {
    email,
    code,
    emailCode,
    password = STAFF_PASSWORD,
    address = freshAddress(),
    site = DASHBOARD_SITE,
    app: forApp,
  }: {
    email: string
    code?: string
    /** The code of the set-up e-mail. */
    emailCode?: string
    password?: string
    address?: string
    /** The Host the request names, and the origin it comes from (http://<site>). */
    site?: string
    /** The app the sign-in page was opened for, which the sign-in's audit entry names; none when left out. */
    app?: string
  },
) {
  return request(app)
    .post('/api/staff/login')
    .set({ Host: site, Origin: `http://${site}` })
    .set('X-Forwarded-For', address)
    .send({
      email,
      password,
      ...(code === undefined ? {} : { code }),
      ...(emailCode === undefined ? {} : { emailCode }),
      ...(forApp === undefined ? {} : { app: forApp }),
    })
}

/** The staff_session cookie a sign-in (or an accepted invitation) set, as a Cookie header's value. */
export function sessionCookie(res: request.Response): string {
  const cookie = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((line) => line.startsWith('staff_session='))
  if (!cookie) throw new Error('login set no staff_session cookie')
  return cookie.split(';')[0]!
}

/**
 * Signs in as staff the way the dashboard does (see staffLogin), as the first admin (ADMIN_EMAIL and
 * ADMIN_PASSWORD) unless told, from `clientAddress` or else a fresh address; expects 204 and gives the
 * session cookie ("staff_session=…").
 */
export async function loginStaff(
  app: Express,
  {
    site,
    clientAddress,
    email = ADMIN_EMAIL,
    password = ADMIN_PASSWORD,
    app: forApp,
  }: { site: string; clientAddress?: string; email?: string; password?: string; app?: string },
): Promise<string> {
  return sessionCookie(
    await staffLogin(app, { site, address: clientAddress, email, password, app: forApp }).expect(204),
  )
}

/** Makes a staff account and signs it in as the dashboard does; returns its session cookie. */
export async function signInNewAccount(
  ctx: Pick<TestContext, 'db' | 'app'>,
  site: string,
  account: NewAccount & { password: string },
): Promise<string> {
  await createAccount(ctx.db, account)
  return loginStaff(ctx.app, { site, email: account.email, password: account.password })
}
