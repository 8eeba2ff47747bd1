import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = '127.0.0.1'
/** Staff addresses in other letter case: each is no route, whoever asks. */
const CASE_VARIANTS = [
  '/API/staff/military',
  '/api/staff/Military',
  '/API/STAFF/MILITARY',
  '/API/staff/accounts',
  '/api/STAFF/accounts',
  '/api/staff/Accounts',
  '/Api/Staff/audit',
  '/api/staff/Intake-Submissions',
  '/API/staff/apps/brigit/submissions',
  '/api/staff/apps/brigit/Export.csv',
  '/api/staff/Session',
]

for (const dialect of DIALECTS) {
  describe(`${dialect}: staff routes and letter case`, () => {
    let ctx: TestContext
    let admin: string

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it.each(CASE_VARIANTS)('answers %s with 404 or 401 and no data, without a session', async (path) => {
      const res = await request(ctx.app).get(path)
      expect([401, 404]).toContain(res.status)
      expect(res.text).not.toMatch(/active|accounts"|@/i)
    })

    it.each(CASE_VARIANTS)('answers %s with 404 and no data, with an admin session', async (path) => {
      const res = await request(ctx.app).get(path).set({ Host: SITE, Cookie: admin })
      expect(res.status).toBe(404)
      expect(res.text).not.toMatch(/active|accounts"|@/i)
    })

    it('answers the military figures without a session with 401, and an admin with the figures', async () => {
      expect((await request(ctx.app).get('/api/staff/military')).status).toBe(401)
      const res = await request(ctx.app).get('/api/staff/military').set({ Host: SITE, Cookie: admin })
      expect(res.status).toBe(200)
      expect(res.body).toHaveProperty('activeMilitary')
    })

    it('answers a public address in other letter case with 404', async () => {
      expect((await request(ctx.app).get('/API/forms/brigit')).status).toBe(404)
      expect((await request(ctx.app).get('/api/Forms/brigit')).status).toBe(404)
      expect((await request(ctx.app).get('/api/forms/brigit')).status).toBe(200)
    })
  })
}

describe('the routers', () => {
  it('are all made case-sensitive, so no route answers an address its guard does not see', () => {
    const serverDir = path.resolve(import.meta.dirname, '..', '..', '..', 'server')
    const sources = fs
      .readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => ({ file, text: fs.readFileSync(path.join(serverDir, file), 'utf8') }))
    const calls = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/\bRouter\(([^)]*)\)/g)].map((match) => ({ file, args: match[1] })),
    )
    expect(calls.length).toBeGreaterThan(10)
    expect(calls.filter(({ args }) => !/caseSensitive: true/.test(args ?? ''))).toEqual([])
  })
})
