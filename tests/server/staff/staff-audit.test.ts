import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AuditEntryView, AuditPage } from '../../../src/api/staff-audit.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { auditLog } from '../../../server/audit/audit-log.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { ADMIN_EMAIL, createTestContext, DIALECTS, makePng, type TestContext } from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import { freshAddress, loginStaff, STAFF_PASSWORD, staffLogin } from '../support/staff-sign-in.ts'

const SITE = 'audit.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
let nextAccount = 1

function get(context: TestContext, url: string, cookie: string) {
  return request(context.app).get(url).set(SAME_SITE).set('Cookie', cookie)
}

/** A brigit claim of its own phone, filed through the form's API; its id. */
async function fileBrigitClaim(context: TestContext, phone: string): Promise<number> {
  const fields = { phoneNumber: phone, email: `c${phone.replace(/\D/g, '')}@example.com` }
  return (await fileClaim(context, { app: 'brigit', fields, screenshot: makePng({ width: 30, height: 20 }) }))
    .id
}

/** A brigit paralegal with export rights, signed in; its id, e-mail and session. */
async function paralegal(context: TestContext) {
  const email = `paralegal${nextAccount++}@firm.test`
  const id = await createAccount(context.db, {
    email,
    name: 'Pat Paralegal',
    role: 'staff',
    apps: [{ app: 'brigit', canExport: true }],
    password: STAFF_PASSWORD,
  })
  return {
    id,
    email,
    cookie: await loginStaff(context.app, { site: SITE, email, password: STAFF_PASSWORD, app: 'brigit' }),
  }
}

/** Reads a CSV download's text whole (supertest leaves text/csv unparsed otherwise). */
function csvText(req: request.Test) {
  return req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = []
    res.on('data', (chunk: Buffer) => chunks.push(chunk))
    res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')))
  })
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: the audit log names people, and admins read it`, () => {
    let ctx: TestContext
    let admin: string
    let claimId: number
    // one paralegal for the file, signed in once
    let pat: Awaited<ReturnType<typeof paralegal>>

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      claimId = await fileBrigitClaim(ctx, '(555) 710-0001')
      admin = await loginStaff(ctx.app, { site: SITE, app: 'brigit' })
      pat = await paralegal(ctx)
    })
    afterAll(async () => {
      await ctx?.close()
    })

    const auditPage = async (query: string, cookie = admin) =>
      (await get(ctx, `/api/staff/audit?${query}`, cookie).expect(200)).body as AuditPage

    it('records each sign-in, failed sign-in, claim view, screenshot view, export and evidence download with its person', async () => {
      const { id, email, cookie } = pat
      await staffLogin(ctx.app, { site: SITE, email, password: 'not the password', app: 'brigit' }).expect(
        401,
      )
      const claim = await get(ctx, `/api/staff/claims/${claimId}`, cookie).expect(200)
      expect(claim.body).toMatchObject({ id: claimId, app: 'brigit', email: 'c5557100001@example.com' })
      await get(ctx, `/api/staff/claims/${claimId}/screenshot`, cookie).expect(200)
      await get(ctx, '/api/staff/apps/brigit/export.csv', cookie).expect(200)
      await get(ctx, `/api/staff/claims/${claimId}/evidence.zip`, cookie).expect(200)

      const { entries, count } = await auditPage(`account=${id}`)
      const person = { accountId: id, person: 'Pat Paralegal', email, app: 'brigit' }
      expect(count).toBe(6)
      expect(entries).toEqual(
        [
          { ...person, action: 'evidence_download', detail: `claim ${claimId}` },
          { ...person, action: 'export', detail: '1 rows' },
          { ...person, action: 'screenshot_view', detail: `claim ${claimId}` },
          { ...person, action: 'claim_view', detail: `claim ${claimId}` },
          { ...person, action: 'login_failure', detail: null },
          { ...person, action: 'login_success', detail: null },
        ].map((entry) => ({
          ...entry,
          id: expect.any(Number),
          at: expect.any(String),
          clientAddress: expect.any(String),
        })),
      )
      const times = entries.map((entry) => entry.at)
      expect(times).toEqual([...times].sort().reverse())
    }, 60_000)

    it('records the view before answering, and a claim the account may not see neither answers nor is recorded', async () => {
      const { id, cookie } = pat
      const views = async () => (await auditPage(`account=${id}&action=claim_view`)).count
      const before = await views()
      const earnin = await fileClaim(ctx, {
        app: 'earnin',
        fields: { phoneNumber: '(555) 710-0002', email: 'e@example.com' },
        screenshot: makePng({ width: 31, height: 20 }),
      })
      const refused = await get(ctx, `/api/staff/claims/${earnin.id}`, cookie).expect(403)
      expect(refused.body.error.code).toBe('FORBIDDEN')
      await get(ctx, '/api/staff/claims/999999', cookie).expect(404)
      expect(await views()).toBe(before)
    })

    it('names an attempt with an unknown e-mail "unknown", and one with a known e-mail by its account', async () => {
      const address = freshAddress()
      await staffLogin(ctx.app, {
        site: SITE,
        email: 'nobody@firm.test',
        password: 'whatever it is',
        address,
        app: 'brigit',
      }).expect(401)
      const { entries } = await auditPage('action=login_failure&pageSize=200')
      expect(entries.filter((entry) => entry.clientAddress === address)).toEqual([
        expect.objectContaining({ accountId: null, person: 'unknown', email: null, action: 'login_failure' }),
      ])
    })

    it('shows the account as it is named now, and the stored e-mail once the account is gone', async () => {
      const email = 'robin@firm.test'
      const id = await createAccount(ctx.db, { email, name: 'Robin Before', role: 'admin', apps: [] })
      await auditLog(
        ctx.db,
        ctx.evidenceKey,
      )({
        clientAddress: '192.0.2.9',
        accountId: id,
        actor: email,
        action: 'logout',
      })
      await ctx.db.updateTable('staff_accounts').set({ name: 'Robin After' }).where('id', '=', id).execute()
      expect((await auditPage(`account=${id}`)).entries[0]).toMatchObject({ person: 'Robin After', email })
      await ctx.db.deleteFrom('staff_accounts').where('id', '=', id).execute()
      expect((await auditPage(`account=${id}`)).entries[0]).toMatchObject({
        accountId: id,
        person: email,
        email,
      })
    })

    it("filters by app, action and the firm's days (both ends included), in pages of 50 newest first", async () => {
      // around midnight in Los Angeles (firm.json), 8 hours behind UTC in January
      const at = [
        '2026-01-15T07:59:59.999Z',
        '2026-01-15T08:00:00.000Z',
        '2026-01-16T07:59:59.999Z',
        '2026-01-16T08:00:00.000Z',
      ]
      for (const [index, time] of at.entries()) {
        await ctx.db
          .insertInto('audit_log')
          .values({
            at: time,
            client_address: '192.0.2.1',
            app: index % 2 ? 'earnin' : 'brigit',
            action: 'date_probe',
            detail: `probe ${index}`,
          })
          .execute()
      }
      const details = async (query: string) =>
        (await auditPage(`action=date_probe&${query}`)).entries.map((entry) => entry.detail)
      expect(await details('')).toEqual(['probe 3', 'probe 2', 'probe 1', 'probe 0'])
      expect(await details('from=2026-01-15&to=2026-01-15')).toEqual(['probe 2', 'probe 1'])
      expect(await details('from=2026-01-15')).toEqual(['probe 3', 'probe 2', 'probe 1'])
      expect(await details('to=2026-01-15')).toEqual(['probe 2', 'probe 1', 'probe 0'])
      expect(await details('app=earnin')).toEqual(['probe 3', 'probe 1'])
      expect(await details('app=chime')).toEqual([])

      const second = await auditPage('action=date_probe&page=2&pageSize=3')
      expect(second).toMatchObject({ count: 4, page: 2, pageSize: 3 })
      expect(second.entries.map((entry) => entry.detail)).toEqual(['probe 0'])
      expect((await auditPage('')).pageSize).toBe(50)
    })

    it('lists the accounts, apps and actions to filter by', async () => {
      const page = await auditPage('')
      expect(page.people).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'Administrator', email: ADMIN_EMAIL })]),
      )
      expect(page.apps).toEqual(expect.arrayContaining([{ app: 'brigit', name: 'Brigit' }]))
      expect(page.actions).toEqual(
        expect.arrayContaining(['claim_view', 'login_failure', 'login_success', 'screenshot_view']),
      )
      expect(page.actions).toEqual([...page.actions].sort())
    })

    it('exports the filtered entries as CSV, and records that export with its filters', async () => {
      const { entries } = await auditPage('action=claim_view&pageSize=200')
      const res = await csvText(get(ctx, '/api/staff/audit/export.csv?action=claim_view', admin)).expect(200)
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename=audit-log-\d{4}-\d{2}-\d{2}\.csv$/,
      )
      const lines = (res.body as string).split('\r\n').filter((line) => line !== '')
      expect(lines[0]).toBe('\ufeffTime,Person,Email,Account ID,Action,App,Detail,Address')
      expect(lines.slice(1)).toEqual(
        entries.map((entry: AuditEntryView) =>
          [
            entry.at,
            entry.person,
            entry.email,
            entry.accountId,
            'claim_view',
            'brigit',
            entry.detail,
            entry.clientAddress,
          ].join(','),
        ),
      )
      const [recorded] = (await auditPage('action=export')).entries
      expect(recorded).toMatchObject({
        person: 'Administrator',
        email: ADMIN_EMAIL,
        app: null,
        detail: `audit log, ${entries.length} rows, action claim_view`,
      })
      await get(ctx, '/api/staff/audit/export.csv?action=claim_view&check=1', admin).expect(204)
    })

    it('answers 400 naming the parameter for a bad filter, on the page and the CSV', async () => {
      const cases: [string, RegExp][] = [
        ['account=abc', /^"account" must be/],
        ['account=0', /^"account" must be/],
        ['app=Not%20An%20App', /^"app" must be/],
        ['action=drop%20table', /^"action" must be/],
        ['from=2026-02-30', /^"from" must be a date/],
        ['to=27%2F11%2F2026', /^"to" must be a date/],
        ['from=2026-11-27&to=2026-11-26', /^"from" must be on or before "to"/],
        ['action=a&action=b', /^"action" must be given once/],
      ]
      for (const [query, message] of cases) {
        for (const path of ['/api/staff/audit', '/api/staff/audit/export.csv']) {
          const res = await get(ctx, `${path}?${query}`, admin)
          expect([path, query, res.status, res.body.error?.code]).toEqual([path, query, 400, 'BAD_REQUEST'])
          expect(res.body.error.message).toMatch(message)
        }
      }
      const page = await get(ctx, '/api/staff/audit?page=0', admin).expect(400)
      expect(page.body.error.message).toMatch(/^"page" must be/)
    })

    it('answers 403 to an account that is not an admin, and records no export for it', async () => {
      const { id, cookie } = pat
      const exports = async () => (await auditPage(`account=${id}&action=export`)).count
      const before = await exports()
      for (const path of ['/api/staff/audit', '/api/staff/audit/export.csv']) {
        const res = await get(ctx, path, cookie).expect(403)
        expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: 'only an admin may see this' })
      }
      expect(await exports()).toBe(before)
    })
  })

  describe(`${dialect}: named audit entries in the evidence ledger`, () => {
    let context: TestContext
    let claimId: number
    beforeAll(async () => {
      context = await createTestContext(dialect)
      claimId = await fileBrigitClaim(context, '(555) 720-0001')
    })
    afterAll(async () => {
      await context?.close()
    })

    it('verifies with named entries, and names the entry whose actor was changed in the database', async () => {
      const { id, email, cookie } = await paralegal(context)
      await get(context, `/api/staff/claims/${claimId}`, cookie).expect(200)
      const verify = () =>
        verifyEvidence({ db: context.db, storage: context.storage, evidenceKey: context.evidenceKey })

      const named = await context.db
        .selectFrom('audit_log')
        .select(['id', 'action'])
        .where('account_id', '=', id)
        .orderBy('id')
        .execute()
      expect(named.map((row) => row.action)).toEqual(['login_success', 'claim_view'])
      expect(await verify()).toMatchObject({ auditEntries: 2, problems: [] })

      const view = Number(named[1]!.id)
      await sql`UPDATE audit_log SET actor = ${'someone.else@firm.test'} WHERE id = ${view}`.execute(
        context.db,
      )
      expect((await verify()).problems).toEqual([
        `audit entry ${view}: sealed record differs (it was changed)`,
      ])

      await sql`UPDATE audit_log SET actor = ${email}, account_id = ${id + 1000} WHERE id = ${view}`.execute(
        context.db,
      )
      expect((await verify()).problems).toEqual([
        `audit entry ${view}: sealed record differs (it was changed)`,
      ])
    })
  })
}
