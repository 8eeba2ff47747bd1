import crypto from 'node:crypto'
import type { Express } from 'express'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVALID_PASSWORD_MESSAGE } from '../../../src/staff-messages.ts'
import { createAccount, setAccess, setDisabled, setPassword } from '../../../server/staff/staff-accounts.ts'
import { claimRow } from '../support/claim-fixtures.ts'
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestContext,
  DIALECTS,
  insertClaim,
  type TestContext,
} from '../support/helpers.ts'
import {
  freshAddress,
  SAME_SITE,
  sessionCookie,
  STAFF_PASSWORD,
  staffLogin,
} from '../support/staff-sign-in.ts'

const UNGUARDED = new Set([
  'POST /api/staff/login',
  'POST /api/staff/logout',
  // the one-time links of people without an account yet: the token decides
  'POST /api/staff/invites/check',
  'POST /api/staff/invites/accept',
])
/** Routes about the signed-in person themselves: open to every account. */
const OWN_ACCOUNT = new Set([
  'GET /api/staff/session',
  'GET /api/staff/my-apps',
  // the counts of the account's own apps only (staff-home.test.ts)
  'GET /api/staff/app-counts',
  'POST /api/staff/account/password',
  'GET /api/staff/two-factor',
  'POST /api/staff/two-factor/setup',
  'POST /api/staff/two-factor/confirm',
  'POST /api/staff/two-factor/recovery-codes',
  'POST /api/staff/two-factor/disable',
])
/** The first admin, signing in from the brigit page (the sign-in's audit entry names the app). */
const ADMIN = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, app: 'brigit' }
let nextAccount = 1

/** A route of one app or one claim (it names :slug or :id); every other staff route is an admin's. */
function isAppRoute(route: string): boolean {
  return /:(slug|id)\b/.test(route)
}

/** Routes that need the app's decide or payments right, which the accounts here are not given. */
function isDecideRoute(route: string): boolean {
  return (
    route.includes('/apps/:slug/bulk-moves') ||
    /\/(awards|settlements)\b|\/award(\/costs)?$|\/1099\.csv$/.test(route) ||
    route === 'POST /api/staff/apps/:slug/payouts' ||
    (route.startsWith('POST ') && route.includes('/batches')) ||
    route === 'POST /api/staff/claims/:id/not-fraud'
  )
}
/**
 * Routes whose :id names a bulk move's job or a payout batch, not a claim: none exists here, so they
 * answer 404 (a payout batch's own app is checked once it is found: payout-batches.test.ts).
 */
const JOB_ROUTE = 'GET /api/staff/bulk-moves/:id'
const isJobRoute = (route: string) => route === JOB_ROUTE || route.includes('/payout-batches/:id')
function isExportRoute(route: string): boolean {
  return /export\.csv$|evidence\.zip$|batches\/:id\/(download|evidence)$|unclaimed\.(csv|json)$/.test(route)
}
interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> }
  handle?: { stack?: RouterLayer[] }
  rawPath?: unknown
}

/** Every route of the app as 'METHOD /path', walking nested routers and their mount paths. */
function listRoutes(stack: RouterLayer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const { path, methods } = layer.route
      if (typeof path !== 'string')
        throw new Error(`route path ${String(path)} is not a string: list it here`)
      return Object.keys(methods)
        .filter((method) => method !== '_all')
        .map((method) => `${method.toUpperCase()} ${prefix}${path}`)
    }
    const nested = layer.handle?.stack
    if (!nested) return []
    const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''
    return listRoutes(nested, prefix + mount)
  })
}

function staffRoutes(app: Express): string[] {
  const routes = listRoutes((app.router as unknown as { stack: RouterLayer[] }).stack)
  return routes.filter((route) => route.split(' ')[1]!.startsWith('/api/staff') && !UNGUARDED.has(route))
}

/** Calls 'METHOD /path/:param' with every parameter filled in: an app's slug, a claim's id. */
function callRoute(app: Express, route: string, cookie?: string, { slug = 'brigit', id = 1 } = {}) {
  const [method, path] = route.split(' ') as [string, string]
  const url = path.replace(/:(\w+)/g, (_, name: string) => (name === 'slug' ? slug : String(id)))
  const req = request(app)[method.toLowerCase() as 'get'](url).set(SAME_SITE)
  return cookie ? req.set('Cookie', cookie) : req
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: staff access`, { timeout: 90_000 }, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    describe('without a session', () => {
      it('finds the staff routes in the router, the dashboard ones among them', () => {
        expect(staffRoutes(ctx.app)).toEqual(
          expect.arrayContaining([
            'GET /api/staff/session',
            'GET /api/staff/apps/:slug/submissions',
            'GET /api/staff/apps/:slug/stats',
            'GET /api/staff/apps/:slug/export.csv',
            'GET /api/staff/claims/:id/screenshot',
            'GET /api/staff/intake-submissions',
            'GET /api/staff/intake-submissions/export.csv',
            'GET /api/staff/apps/:slug/filing',
          ]),
        )
      })

      it('answers 401 on every staff route but login and logout', async () => {
        const answers: Record<string, number> = {}
        for (const route of staffRoutes(ctx.app)) answers[route] = (await callRoute(ctx.app, route)).status
        expect(answers).toEqual(Object.fromEntries(staffRoutes(ctx.app).map((route) => [route, 401])))
      })

      it('answers 401 with an unknown session cookie', async () => {
        const res = await callRoute(ctx.app, 'GET /api/staff/apps/:slug/submissions', 'staff_session=forged')
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: expect.any(String) } })
      })
    })

    describe('login', () => {
      it('refuses a wrong password with the spec message and audits the failure', async () => {
        const address = freshAddress()
        const res = await staffLogin(ctx.app, { ...ADMIN, password: 'wrong', address })

        expect(res.status).toBe(401)
        expect(res.body).toEqual({ error: { code: 'INVALID_PASSWORD', message: INVALID_PASSWORD_MESSAGE } })
        expect(res.headers['set-cookie']).toBeUndefined()
        const audit = await ctx.db
          .selectFrom('audit_log')
          .selectAll()
          .where('client_address', '=', address)
          .execute()
        expect(audit).toMatchObject([{ action: 'login_failure', app: 'brigit' }])
      })

      it('accepts the right password with an HttpOnly SameSite=Strict session cookie', async () => {
        const res = await staffLogin(ctx.app, ADMIN)

        expect(res.status).toBe(204)
        const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n')
        expect(cookie).toMatch(/^staff_session=[^;]+;/)
        expect(cookie).toMatch(/; HttpOnly/)
        expect(cookie).toMatch(/; SameSite=Strict/)
      })

      it('opens every staff route with that cookie', async () => {
        const cookie = sessionCookie(await staffLogin(ctx.app, ADMIN).expect(204))
        for (const route of staffRoutes(ctx.app)) {
          expect([route, (await callRoute(ctx.app, route, cookie)).status]).not.toEqual([route, 401])
        }
      })

      it('answers 429 to the 11th login from one address in 15 minutes', async () => {
        const address = freshAddress()
        for (let attempt = 1; attempt <= 10; attempt++) {
          await staffLogin(ctx.app, { ...ADMIN, password: attempt % 2 ? 'wrong' : ADMIN_PASSWORD, address })
        }
        const res = await staffLogin(ctx.app, { ...ADMIN, address })

        expect(res.status).toBe(429)
        expect(res.body.error.code).toBe('RATE_LIMITED')
        expect(res.headers['retry-after']).toMatch(/^\d+$/)
      })

      it('refuses a login posted from another site', async () => {
        const res = await staffLogin(ctx.app, ADMIN).set('Origin', 'https://evil.example')
        expect(res.status).toBe(403)
        expect(res.body.error.code).toBe('CROSS_SITE_REQUEST')
      })
    })

    describe('a session', () => {
      it('ends at its expiry', async () => {
        const cookie = sessionCookie(await staffLogin(ctx.app, ADMIN).expect(204))
        await callRoute(ctx.app, 'GET /api/staff/session', cookie).expect(200)

        await ctx.db
          .updateTable('staff_sessions')
          .set({ expires_at: Date.now() - 1000 })
          .execute()

        expect((await callRoute(ctx.app, 'GET /api/staff/apps/:slug/stats', cookie)).status).toBe(401)
      })

      it('ends at logout', async () => {
        const cookie = sessionCookie(await staffLogin(ctx.app, ADMIN).expect(204))
        await request(ctx.app).post('/api/staff/logout').set(SAME_SITE).set('Cookie', cookie).expect(204)

        expect((await callRoute(ctx.app, 'GET /api/staff/apps/:slug/submissions', cookie)).status).toBe(401)
      })

      it('is not ended by a logout posted from another site', async () => {
        const cookie = sessionCookie(await staffLogin(ctx.app, ADMIN).expect(204))
        const res = await request(ctx.app)
          .post('/api/staff/logout')
          .set(SAME_SITE)
          .set('Origin', 'https://evil.example')
          .set('Cookie', cookie)

        expect(res.status).toBe(403)
        await callRoute(ctx.app, 'GET /api/staff/session', cookie).expect(200)
      })
    })
    describe('roles', () => {
      let brigitClaim: number
      let earninClaim: number
      beforeAll(async () => {
        brigitClaim = (await insertClaim(ctx.db, claimRow('(555) 010-0001'))).id
        earninClaim = (await insertClaim(ctx.db, { ...claimRow('(555) 010-0002'), app: 'earnin' })).id
      })

      /** A staff account granted brigit (with or without export) and signed in; its session cookie. */
      async function brigitStaff({ canExport }: { canExport: boolean }) {
        const email = `paralegal${nextAccount++}@firm.test`
        const id = await createAccount(ctx.db, {
          email,
          name: 'Pat Paralegal',
          role: 'staff',
          apps: [{ app: 'brigit', canExport }],
          password: STAFF_PASSWORD,
        })
        const cookie = sessionCookie(await staffLogin(ctx.app, { email, app: 'brigit' }).expect(204))
        return { id, email, cookie }
      }

      it('gives a brigit account 403 on every route of earnin and every admin route', async () => {
        const { cookie } = await brigitStaff({ canExport: true })
        const answers: Record<string, number> = {}
        for (const route of staffRoutes(ctx.app).filter(
          (route) => !OWN_ACCOUNT.has(route) && !isJobRoute(route),
        )) {
          answers[route] = (
            await callRoute(ctx.app, route, cookie, { slug: 'earnin', id: earninClaim })
          ).status
        }
        expect(answers).toEqual(Object.fromEntries(Object.keys(answers).map((route) => [route, 403])))
        expect(Object.keys(answers)).toEqual(
          expect.arrayContaining([
            'GET /api/staff/apps/:slug/submissions',
            'GET /api/staff/apps/:slug/stats',
            'GET /api/staff/apps/:slug/export.csv',
            'GET /api/staff/claims/:id/screenshot',
            'GET /api/staff/intake-submissions',
            'GET /api/staff/military',
          ]),
        )
      })

      it("opens brigit's routes to a brigit account, and the export ones only with export rights", async () => {
        const exporter = await brigitStaff({ canExport: true })
        const viewer = await brigitStaff({ canExport: false })
        for (const route of staffRoutes(ctx.app).filter((route) => isAppRoute(route) && !isJobRoute(route))) {
          const asExporter = await callRoute(ctx.app, route, exporter.cookie, { id: brigitClaim })
          const asViewer = await callRoute(ctx.app, route, viewer.cookie, { id: brigitClaim })
          if (isDecideRoute(route)) {
            expect([route, asExporter.status, asViewer.status]).toEqual([route, 403, 403])
            continue
          }
          expect([route, asExporter.status]).not.toEqual([route, 403])
          expect([route, asViewer.status]).toEqual([route, isExportRoute(route) ? 403 : asExporter.status])
        }
      })

      it('tells the page who is signed in and what they may see', async () => {
        const { id, email, cookie } = await brigitStaff({ canExport: false })
        const res = await callRoute(ctx.app, 'GET /api/staff/session', cookie).expect(200)
        expect(res.body).toEqual({
          authenticated: true,
          account: {
            id,
            email,
            name: 'Pat Paralegal',
            role: 'staff',
            apps: [{ app: 'brigit', canExport: false }],
            twoFactor: false,
          },
        })
      })

      it('names the account in the audit log of what it did', async () => {
        const { id, email, cookie } = await brigitStaff({ canExport: true })
        await callRoute(ctx.app, 'GET /api/staff/apps/:slug/export.csv', cookie).expect(200)
        const rows = await ctx.db
          .selectFrom('audit_log')
          .select(['action', 'account_id', 'actor', 'app'])
          .where('account_id', '=', id)
          .orderBy('id')
          .execute()
        expect(rows.map((row) => ({ ...row, account_id: Number(row.account_id) }))).toEqual([
          { action: 'login_success', account_id: id, actor: email, app: 'brigit' },
          { action: 'export', account_id: id, actor: email, app: 'brigit' },
        ])
      })
    })

    describe('sessions of an account', () => {
      async function signedInAccount() {
        const email = `member${nextAccount++}@firm.test`
        const id = await createAccount(ctx.db, {
          email,
          name: 'Sam Member',
          role: 'staff',
          apps: [{ app: 'brigit', canExport: false }],
          password: STAFF_PASSWORD,
        })
        const cookies = [
          sessionCookie(await staffLogin(ctx.app, { email, app: 'brigit' }).expect(204)),
          sessionCookie(await staffLogin(ctx.app, { email, app: 'brigit' }).expect(204)),
        ]
        return { id, email, cookies }
      }
      const isOpen = async (cookie: string) =>
        (await callRoute(ctx.app, 'GET /api/staff/session', cookie)).status

      it('end after 30 idle minutes, and a used one lives on', async () => {
        const { id, cookies } = await signedInAccount()
        const [idle, used] = cookies as [string, string]
        await ctx.db
          .updateTable('staff_sessions')
          .set({ last_seen_at: Date.now() - 31 * 60 * 1000 })
          .where('account_id', '=', id)
          .execute()
        await ctx.db
          .updateTable('staff_sessions')
          .set({ last_seen_at: Date.now() - 29 * 60 * 1000 })
          .where('token_hash', '=', crypto.createHash('sha256').update(used.split('=')[1]!).digest('hex'))
          .execute()

        expect(await isOpen(idle)).toBe(401)
        expect(await isOpen(used)).toBe(200)
      })

      it('all end when the password changes, and the new password signs in', async () => {
        const { id, email, cookies } = await signedInAccount()
        await setPassword(ctx.db, id, 'a brand new password')
        for (const cookie of cookies) expect(await isOpen(cookie)).toBe(401)
        await staffLogin(ctx.app, { email, password: STAFF_PASSWORD, app: 'brigit' }).expect(401)
        await staffLogin(ctx.app, { email, password: 'a brand new password', app: 'brigit' }).expect(204)
      })

      it('all end when the role or apps change', async () => {
        const { id, cookies } = await signedInAccount()
        await ctx.db
          .transaction()
          .execute((trx) =>
            setAccess(trx, id, { role: 'staff', apps: [{ app: 'earnin', canExport: false }] }),
          )
        for (const cookie of cookies) expect(await isOpen(cookie)).toBe(401)
      })

      it('all end when the account is disabled, which then cannot sign in until re-enabled', async () => {
        const { id, email, cookies } = await signedInAccount()
        await ctx.db.transaction().execute((trx) => setDisabled(trx, id, true))
        for (const cookie of cookies) expect(await isOpen(cookie)).toBe(401)
        const refused = await staffLogin(ctx.app, { email, app: 'brigit' })
        expect(refused.status).toBe(401)
        expect(refused.body.error.message).toBe(INVALID_PASSWORD_MESSAGE)
        await ctx.db.transaction().execute((trx) => setDisabled(trx, id, false))
        await staffLogin(ctx.app, { email, app: 'brigit' }).expect(204)
      })

      it('refuses an unknown e-mail as it refuses a wrong password', async () => {
        const res = await staffLogin(ctx.app, { ...ADMIN, email: 'nobody@firm.test' })
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ error: { code: 'INVALID_PASSWORD', message: INVALID_PASSWORD_MESSAGE } })
      })
    })
  })
}
