import fs from 'node:fs'
import path from 'node:path'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { readServerConfig } from '../../../server/config.ts'
import { prepareData } from '../../../server/main.ts'
import { createLogger } from '../../../server/logger.ts'
import { SETUP_GONE_MESSAGE } from '../../../server/accounts/accept-invite.ts'
import { SETUP_LINK_FILE } from '../../../server/staff/first-admin.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { SAME_SITE, sessionCookie, staffLogin } from '../support/staff-sign-in.ts'

const SITE = 'dashboard.test'
const OWNER_PASSWORD = 'the owner passphrase'

for (const dialect of DIALECTS) {
  describe(`${dialect}: the first admin of a fresh install`, () => {
    let ctx: TestContext

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    /** npm start's preparation on this context's database, as if it had no account; what it printed. */
    async function startFresh(env: Record<string, string>): Promise<string> {
      await ctx.db.deleteFrom('staff_accounts').execute()
      const config = readServerConfig({ DATA_DIR: ctx.dataDir, PUBLIC_URL: `http://${SITE}`, ...env })
      const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined)
      try {
        await prepareData({
          db: ctx.db,
          dialect,
          storage: ctx.storage,
          config: { ...config, databaseUrl: undefined, databaseOwnerUrl: undefined },
          logger: createLogger('silent'),
          reviews: ctx.reviews,
          apps: ctx.forms.keys(),
        })
        return printed.mock.calls.map((args) => args.join(' ')).join('\n')
      } finally {
        printed.mockRestore()
      }
    }
    const accept = (body: object) =>
      request(ctx.app).post('/api/staff/invites/accept').set(SAME_SITE).send(body)

    it('creates the admin from ADMIN_EMAIL and ADMIN_PASSWORD, printing neither', async () => {
      const printed = await startFresh({ ADMIN_EMAIL: 'Owner@Firm.test', ADMIN_PASSWORD: OWNER_PASSWORD })

      expect(printed).not.toContain(OWNER_PASSWORD)
      const accounts = await ctx.db.selectFrom('staff_accounts').select(['email', 'role']).execute()
      expect(accounts).toEqual([{ email: 'owner@firm.test', role: 'admin' }])
      await staffLogin(ctx.app, { email: 'owner@firm.test', password: OWNER_PASSWORD }).expect(204)
    })

    it('else writes a 0600 file with a one-time link, prints only its path, and the link makes one admin once', async () => {
      const printed = await startFresh({})

      const file = path.join(ctx.dataDir, SETUP_LINK_FILE)
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      const token = /\/staff\/setup#token=([\w-]+)/.exec(fs.readFileSync(file, 'utf8'))?.[1]
      expect(token).toBeDefined()
      expect(printed).toContain(file)
      expect(printed).not.toContain(token)
      const checked = await request(ctx.app).post('/api/staff/invites/check').set(SAME_SITE).send({ token })
      expect(checked.body).toEqual({ kind: 'setup' })

      const noEmail = await accept({ token, password: OWNER_PASSWORD, name: 'Olive Owner' })
      expect(noEmail.status).toBe(400)
      const accepted = await accept({
        token,
        email: 'olive@firm.test',
        name: 'Olive Owner',
        password: OWNER_PASSWORD,
      }).expect(200)
      // the set-up signs the new admin in: its cookie opens the staff API at once
      expect(accepted.body).toEqual({ signedIn: true })
      const cookie = sessionCookie(accepted)
      const session = await request(ctx.app).get('/api/staff/session').set('Cookie', cookie).expect(200)
      expect(session.body).toMatchObject({
        authenticated: true,
        account: { email: 'olive@firm.test', role: 'admin' },
      })
      const again = await accept({ token, email: 'mallory@evil.test', name: 'M', password: OWNER_PASSWORD })

      expect(again.status).toBe(410)
      expect(again.body.error).toEqual({ code: 'LINK_EXPIRED', message: SETUP_GONE_MESSAGE })
      const accounts = await ctx.db.selectFrom('staff_accounts').select(['email', 'name', 'role']).execute()
      expect(accounts).toEqual([{ email: 'olive@firm.test', name: 'Olive Owner', role: 'admin' }])
      await staffLogin(ctx.app, { email: 'olive@firm.test', password: OWNER_PASSWORD }).expect(204)
    })
  })
}
