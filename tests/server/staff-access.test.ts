import type { Express } from 'express'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INVALID_PASSWORD_MESSAGE } from '../../src/staff-messages.ts'
import { ADMIN_PASSWORD, createTestContext, DIALECTS, type TestContext } from './helpers.ts'

// supertest sends no Origin; the staff routes compare Origin's host with Host, so tests send both
const SITE = 'dashboard.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const UNGUARDED = new Set(['POST /api/staff/login', 'POST /api/staff/logout'])
let nextAddress = 1

/** A client address of its own (trust proxy believes loopback's X-Forwarded-For), so rate limits stay apart. */
function freshAddress(): string {
  return `198.51.100.${nextAddress++}`
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

/** Calls 'METHOD /path/:param' with every parameter filled in. */
function callRoute(app: Express, route: string, cookie?: string) {
  const [method, path] = route.split(' ') as [string, string]
  const url = path.replace(/:(\w+)/g, (_, name: string) => (name === 'slug' ? 'brigit' : '1'))
  const req = request(app)[method.toLowerCase() as 'get'](url).set(SAME_SITE)
  return cookie ? req.set('Cookie', cookie) : req
}

function login(app: Express, { password = ADMIN_PASSWORD, address = freshAddress() } = {}) {
  return request(app)
    .post('/api/staff/login')
    .set(SAME_SITE)
    .set('X-Forwarded-For', address)
    .send({ password, app: 'brigit' })
}

function sessionCookie(res: request.Response): string {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? [])
  const cookie = cookies.find((line) => line.startsWith('staff_session='))
  if (!cookie) throw new Error('login set no staff_session cookie')
  return cookie.split(';')[0]!
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: staff access`, () => {
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
        const res = await login(ctx.app, { password: 'wrong', address })

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
        const res = await login(ctx.app)

        expect(res.status).toBe(204)
        const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).join('\n')
        expect(cookie).toMatch(/^staff_session=[^;]+;/)
        expect(cookie).toMatch(/; HttpOnly/)
        expect(cookie).toMatch(/; SameSite=Strict/)
      })

      it('opens every staff route with that cookie', async () => {
        const cookie = sessionCookie(await login(ctx.app).expect(204))
        for (const route of staffRoutes(ctx.app)) {
          expect([route, (await callRoute(ctx.app, route, cookie)).status]).not.toEqual([route, 401])
        }
      })

      it('answers 429 to the 11th login from one address in 15 minutes', async () => {
        const address = freshAddress()
        for (let attempt = 1; attempt <= 10; attempt++) {
          await login(ctx.app, { password: attempt % 2 ? 'wrong' : ADMIN_PASSWORD, address })
        }
        const res = await login(ctx.app, { address })

        expect(res.status).toBe(429)
        expect(res.body.error.code).toBe('RATE_LIMITED')
        expect(res.headers['retry-after']).toMatch(/^\d+$/)
      })

      it('refuses a login posted from another site', async () => {
        const res = await login(ctx.app).set('Origin', 'https://evil.example')
        expect(res.status).toBe(403)
        expect(res.body.error.code).toBe('CROSS_SITE_REQUEST')
      })
    })

    describe('a session', () => {
      it('ends at its expiry', async () => {
        const cookie = sessionCookie(await login(ctx.app).expect(204))
        await callRoute(ctx.app, 'GET /api/staff/session', cookie).expect(200)

        await ctx.db
          .updateTable('staff_sessions')
          .set({ expires_at: Date.now() - 1000 })
          .execute()

        expect((await callRoute(ctx.app, 'GET /api/staff/apps/:slug/stats', cookie)).status).toBe(401)
      })

      it('ends at logout', async () => {
        const cookie = sessionCookie(await login(ctx.app).expect(204))
        await request(ctx.app).post('/api/staff/logout').set(SAME_SITE).set('Cookie', cookie).expect(204)

        expect((await callRoute(ctx.app, 'GET /api/staff/apps/:slug/submissions', cookie)).status).toBe(401)
      })

      it('is not ended by a logout posted from another site', async () => {
        const cookie = sessionCookie(await login(ctx.app).expect(204))
        const res = await request(ctx.app)
          .post('/api/staff/logout')
          .set(SAME_SITE)
          .set('Origin', 'https://evil.example')
          .set('Cookie', cookie)

        expect(res.status).toBe(403)
        await callRoute(ctx.app, 'GET /api/staff/session', cookie).expect(200)
      })
    })
  })
}
