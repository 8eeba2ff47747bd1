import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql, type Insertable } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ClaimsTable } from '../../../server/db/database.ts'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  makeClaimData,
  makePng,
  readFixture,
  type TestContext,
  insertClaim,
} from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'dashboard.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
/** The CSV's text after its UTF-8 byte-order mark, which every export starts with. */
function withoutBom(text: string): string {
  expect(text.startsWith('\ufeff')).toBe(true)
  return text.slice(1)
}

const CSV_HEADER =
  'ID,Submission Date,First Name,Last Name,Email,Phone Number,Cash Advance Count,Membership Months,Screenshot URL,Time Zone,Confirmed At,Language,Flagged,Flagged Claim IDs,Status,Reason,Status Date,Assignee,Main Form Reference,UTM Source,UTM Medium,UTM Campaign,UTM Content,UTM Term,GCLID,FBCLID,Referrer,Fraud Score,Fraud Reasons'
const ONE_DAY_MS = 24 * 60 * 60 * 1000
const NOW = Date.now()

/** supertest leaves unknown bodies unread; this keeps the bytes. */
function readBytes(res: request.Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = []
  res.on('data', (chunk: Buffer) => chunks.push(chunk))
  res.on('end', () => done(null, Buffer.concat(chunks)))
}

/** The attachment's file name, quoted or not. */
function fileName(res: request.Response): string | undefined {
  return /^attachment; filename="?([^";]+)"?$/.exec(res.headers['content-disposition'] ?? '')?.[1]
}

/** A time as the CSV writes it: Los Angeles' wall clock to the second, as Intl gives it (Sweden's format). */
function losAngeles(time: Date): string {
  return time.toLocaleString('sv-SE', { timeZone: 'America/Los_Angeles' })
}

function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: staff dashboard`, () => {
    let ctx: TestContext
    let cookie: string
    let seq = 0

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      cookie = await loginStaff(ctx.app, { site: SITE })
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
      await ctx.db.deleteFrom('audit_log').execute()
    })

    /** A brigit claim straight into the database, each one a second newer than the last. */
    function makeClaimRow(overrides: Partial<Insertable<ClaimsTable>> = {}): Insertable<ClaimsTable> {
      seq += 1
      return {
        app: 'brigit',
        created_at: new Date(NOW - 10 * ONE_DAY_MS + seq * 1000).toISOString(),
        first_name: 'Sam',
        last_name: 'Rivers',
        email: `sam${seq}@mail.test`,
        phone_number: `(212) 7${String(seq % 100).padStart(2, '0')}-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 3,
        membership_months: 6,
        screenshot_key: 'brigit-screenshots/missing.png',
        screenshot_type: 'image/png',
        ...overrides,
      }
    }

    async function insertClaimRow(overrides: Partial<Insertable<ClaimsTable>> = {}): Promise<number> {
      return (await insertClaim(ctx.db, makeClaimRow(overrides))).id
    }

    /** Many claims in one transaction, in batches that stay under SQLite's bound-parameter limit. */
    async function seedMany(
      count: number,
      overrides: (i: number) => Partial<Insertable<ClaimsTable>> = () => ({}),
    ) {
      const rows = Array.from({ length: count }, (_, i) =>
        makeClaimRow({
          phone_number: `(300) ${String(i)
            .padStart(7, '0')
            .replace(/^(\d{3})/, '$1-')}`,
          ...overrides(i),
        }),
      )
      await ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 500)
          await trx
            .insertInto('claims')
            .values(rows.slice(i, i + 500))
            .execute()
      })
    }

    function staffGet(path: string) {
      return request(ctx.app).get(path).set(SAME_SITE).set('Cookie', cookie)
    }

    async function search(q: string, app = 'brigit'): Promise<number[]> {
      const res = await staffGet(`/api/staff/apps/${app}/submissions`).query({ q }).expect(200)
      return res.body.data.map((submission: { id: number }) => submission.id)
    }

    async function auditRows(action: string) {
      return ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute()
    }

    describe('the submissions list', () => {
      it('lists the app’s claims newest first with the contract’s fields', async () => {
        const older = await insertClaimRow({
          first_name: 'Ann',
          email: 'ann@mail.test',
          phone_number: '(555) 000-1111',
        })
        const newer = await insertClaimRow()
        const res = await staffGet('/api/staff/apps/brigit/submissions').expect(200)

        expect(res.headers['cache-control']).toBe('private, no-store')
        expect(res.body).toMatchObject({
          success: true,
          count: 2,
          total: 2,
          page: 1,
          pageSize: 50,
          error: null,
        })
        expect(res.body.data.map((row: { id: number }) => row.id)).toEqual([newer, older])
        expect(res.body.data[1]).toEqual({
          id: older,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          firstName: 'Ann',
          lastName: 'Rivers',
          email: 'ann@mail.test',
          phoneNumber: '(555) 000-1111',
          cashAdvanceCount: 3,
          membershipMonths: 6,
          locale: 'en',
          confirmedAt: null,
          screenshotUrl: `/api/staff/claims/${older}/screenshot`,
          duplicateOf: [],
          reviewStatus: 'received',
          reviewReason: null,
          reviewMovedAt: null,
          assignee: null,
          attribution: null,
          fraudScore: null,
          fraudStanding: 'unscored',
        })
      })

      it('orders claims of the same second by id, newest first', async () => {
        const createdAt = new Date(NOW).toISOString()
        const first = await insertClaimRow({ created_at: createdAt })
        const second = await insertClaimRow({ created_at: createdAt })
        expect(await search('')).toEqual([second, first])
      })

      it('pages the matches: count is every match, data only the page', async () => {
        const ids = []
        for (let i = 0; i < 5; i++) ids.push(await insertClaimRow({ last_name: i < 4 ? 'Pager' : 'Other' }))
        const res = await staffGet('/api/staff/apps/brigit/submissions')
          .query({ q: 'pager', page: 2, pageSize: 3 })
          .expect(200)

        expect(res.body).toMatchObject({ count: 4, total: 5, page: 2, pageSize: 3 })
        expect(res.body.data.map((row: { id: number }) => row.id)).toEqual([ids[0]])
        const first = await staffGet('/api/staff/apps/brigit/submissions')
          .query({ q: 'pager', page: 1, pageSize: 3 })
          .expect(200)
        expect(first.body).toMatchObject({ count: 4, total: 5, page: 1 })
        expect(first.body.data.map((row: { id: number }) => row.id)).toEqual([ids[3], ids[2], ids[1]])
        const exact = await staffGet('/api/staff/apps/brigit/submissions')
          .query({ q: 'pager', page: 1, pageSize: 4 })
          .expect(200)
        expect(exact.body).toMatchObject({ count: 4, page: 1 })
        expect(exact.body.data).toHaveLength(4)
        const past = await staffGet('/api/staff/apps/brigit/submissions')
          .query({ q: 'pager', page: 3, pageSize: 3 })
          .expect(200)
        expect(past.body).toMatchObject({ data: [], count: 4, total: 5, page: 3 })
        const none = await staffGet('/api/staff/apps/brigit/submissions')
          .query({ q: 'pagerless', page: 1, pageSize: 3 })
          .expect(200)
        expect(none.body).toMatchObject({ data: [], count: 0, total: 5, page: 1 })
      })

      it('cuts a pageSize above 200 to 200 and refuses a page that is not a whole number', async () => {
        const res = await staffGet('/api/staff/apps/brigit/submissions').query({ pageSize: 5000 }).expect(200)
        expect(res.body.pageSize).toBe(200)

        const bad = await staffGet('/api/staff/apps/brigit/submissions').query({ page: 'two' })
        expect(bad.status).toBe(400)
        expect(bad.body.error.code).toBe('BAD_REQUEST')
      })

      it.each([
        ['a NUL', 'jane\u0000'],
        ['a line break', 'jane\ndoe'],
        ['an escape', '\u001b[2Jjane'],
      ])('answers 400 to a search holding %s, in the list and in the export', async (_, q) => {
        for (const route of ['submissions', 'export.csv']) {
          const res = await staffGet(`/api/staff/apps/brigit/${route}`).query({ q })
          expect(res.status).toBe(400)
          expect(res.body.error).toEqual({
            code: 'BAD_REQUEST',
            message: '"q" must not hold control characters (such as NUL or a line break)',
          })
        }
      })

      it('never shows another app’s claims', async () => {
        await insertClaimRow({ app: 'cleo', first_name: 'Cleo', email: 'cleo.user@mail.test' })
        const own = await insertClaimRow()

        expect(await search('')).toEqual([own])
        expect(await search('cleo')).toEqual([])
        const res = await staffGet('/api/staff/apps/brigit/submissions').expect(200)
        expect(res.body).toMatchObject({ count: 1, total: 1 })
      })

      it("shows the app's filing settings: its respondent, the base's representatives and its provider's columns", async () => {
        const { body } = await staffGet('/api/staff/apps/brigit/filing').expect(200)
        expect(body).toMatchObject({
          app: 'brigit',
          appName: 'Brigit',
          respondent: { legalName: 'Bridge It, Inc.' },
          waitingPeriodDays: 60,
          provider: 'aaa',
          representatives: [{ firm: 'Cash Advance Claims Law Group' }],
          profile: { statement: 'affirmation', fees: { perBatch: { claimant: 3125, respondent: 8125 } } },
        })
        expect(body.profile.columns.slice(0, 2)).toEqual([
          { header: 'Unique Claimant ID', field: 'rowId' },
          { header: 'Claimant First Name', field: 'firstName' },
        ])
      })

      it('answers 404 for an unknown app', async () => {
        const res = await staffGet('/api/staff/apps/nope/submissions')
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('FORM_NOT_FOUND')
      })
    })

    describe('search', () => {
      let jane: number
      let bob: number

      beforeEach(async () => {
        jane = await insertClaimRow({
          first_name: 'Janet',
          last_name: 'Doe-Smith',
          email: 'jane.doe@example.com',
          phone_number: '(555) 223-4567',
        })
        bob = await insertClaimRow({ first_name: 'Bob', last_name: 'Stone', email: 'bob@other.test' })
      })

      it('finds an e-mail fragment whatever its case', async () => {
        expect(await search('DOE@EXAM')).toEqual([jane])
      })

      it('finds a first-name or a last-name fragment', async () => {
        expect(await search('ane')).toEqual([jane])
        expect(await search('smith')).toEqual([jane])
        expect(await search('STON')).toEqual([bob])
      })

      it('finds a formatted phone fragment', async () => {
        expect(await search('(555) 223')).toEqual([jane])
        expect(await search('555-2234')).toEqual([jane])
      })

      it('finds a digits-only phone fragment', async () => {
        expect(await search('5552234')).toEqual([jane])
        expect(await search('234567')).toEqual([jane])
      })

      it('matches a term with letters and digits as text, not by its digits against phones', async () => {
        const ann = await insertClaimRow({
          first_name: 'Ann',
          email: 'ann555@example.com',
          phone_number: '(212) 555-0000',
        })
        expect(await search('ann555')).toEqual([ann])
        expect(await search('x4567')).toEqual([])
      })

      it('finds one- and two-character terms too', async () => {
        expect(await search('J')).toEqual([jane])
        expect(await search('bo')).toEqual([bob])
      })

      it('shows everything for a blank term', async () => {
        expect(await search('   ')).toEqual([bob, jane])
      })

      it('reports the matches against the app’s total', async () => {
        const res = await staffGet('/api/staff/apps/brigit/submissions').query({ q: 'jane' }).expect(200)
        expect(res.body).toMatchObject({ count: 1, total: 2 })
      })

      it('takes LIKE wildcards and quotes as plain characters', async () => {
        const percent = await insertClaimRow({ last_name: '100%_"Sure"' })
        expect(await search('%')).toEqual([percent])
        expect(await search('_')).toEqual([percent])
        expect(await search('0%_"s')).toEqual([percent])
        expect(await search('"')).toEqual([percent])
        expect(await search('j%e')).toEqual([])
        expect(await search('a"b OR c')).toEqual([])
      })

      it('finds a claim submitted through the form by its phone digits', async () => {
        const data = makeClaimData({ phoneNumber: '(415) 555-0199', email: 'form.user@example.com' })
        const created = await request(ctx.app)
          .post('/api/forms/brigit/submissions')
          .field('data', JSON.stringify(data))
          .attach('screenshot', readFixture('bank-statement.png'), 'statement.png')
          .expect(201)

        expect(await search('4155550')).toEqual([created.body.id])
      })

      it('keeps the index in step when a claim changes or goes', async () => {
        await ctx.db
          .updateTable('claims')
          .set({ email: 'changed@mail.test' })
          .where('id', '=', jane)
          .execute()
        expect(await search('jane.doe')).toEqual([])
        expect(await search('changed@')).toEqual([jane])

        await ctx.db.updateTable('claims').set({ app: 'cleo' }).where('id', '=', jane).execute()
        expect(await search('changed@')).toEqual([])
        expect(await search('changed@', 'cleo')).toEqual([jane])

        await ctx.db.deleteFrom('claims').where('id', '=', jane).execute()
        expect(await search('changed@', 'cleo')).toEqual([])
      })

      it('searches only the app asked for, newest first, and counts only its matches', async () => {
        const older = await insertClaimRow({ last_name: 'Partition' })
        await insertClaimRow({ app: 'cleo', last_name: 'Partition' })
        const newer = await insertClaimRow({ last_name: 'Partition' })
        await insertClaimRow({ app: 'earnin', last_name: 'Partition' })
        const res = await staffGet('/api/staff/apps/brigit/submissions').query({ q: 'partit' }).expect(200)

        expect(res.body.data.map((row: { id: number }) => row.id)).toEqual([newer, older])
        expect(res.body.count).toBe(2)
        const empty = await staffGet('/api/staff/apps/albert/submissions').query({ q: 'partit' }).expect(200)
        expect(empty.body).toMatchObject({ data: [], count: 0, total: 0 })
      })
    })

    describe('stats', () => {
      it('averages rounded to whole numbers', async () => {
        await insertClaimRow({ membership_months: 1, cash_advance_count: 1 })
        await insertClaimRow({ membership_months: 2, cash_advance_count: 2 })
        await insertClaimRow({ membership_months: 4, cash_advance_count: 2 })
        await insertClaimRow({ app: 'cleo', membership_months: 36, cash_advance_count: 50 })
        const res = await staffGet('/api/staff/apps/brigit/stats').expect(200)

        expect(res.body).toMatchObject({ total: 3, avgMembershipMonths: 2, avgCashAdvances: 2 })
      })

      it('gives zeros and no days for an app without claims', async () => {
        const res = await staffGet('/api/staff/apps/albert/stats').expect(200)
        expect(res.body).toEqual({
          total: 0,
          avgMembershipMonths: 0,
          avgCashAdvances: 0,
          confirmed: 0,
          daily: [],
          statuses: expect.arrayContaining([{ status: 'received', label: 'Received', count: 0 }]),
          reasons: expect.arrayContaining([{ name: 'other', label: 'Other' }]),
          fraudReasons: expect.arrayContaining([
            { code: 'device_shared', label: 'Same device as other claimants' },
          ]),
        })
      })

      it('keeps the cards and the days in step when a claim moves, changes or is deleted', async () => {
        const moved = await insertClaimRow({ membership_months: 10, cash_advance_count: 10 })
        const gone = await insertClaimRow({ membership_months: 20, cash_advance_count: 20 })
        await insertClaimRow({ membership_months: 2, cash_advance_count: 4 })
        await ctx.db.updateTable('claims').set({ app: 'cleo' }).where('id', '=', moved).execute()
        await ctx.db.deleteFrom('claims').where('id', '=', gone).execute()
        await ctx.db.updateTable('claims').set({ membership_months: 6 }).where('app', '=', 'brigit').execute()

        const brigit = await staffGet('/api/staff/apps/brigit/stats').expect(200)
        expect(brigit.body).toMatchObject({ total: 1, avgMembershipMonths: 6, avgCashAdvances: 4 })
        expect(brigit.body.daily.map((day: { count: number }) => day.count)).toEqual([1])
        const cleo = await staffGet('/api/staff/apps/cleo/stats').expect(200)
        expect(cleo.body).toMatchObject({ total: 1, avgMembershipMonths: 10, avgCashAdvances: 10 })
        const list = await staffGet('/api/staff/apps/brigit/submissions').expect(200)
        expect(list.body).toMatchObject({ count: 1, total: 1 })
      })

      it('counts claims per UTC day over the last 90 days, oldest day first', async () => {
        const at = (msAgo: number) => ({ created_at: new Date(NOW - msAgo).toISOString() })
        await insertClaimRow(at(0))
        await insertClaimRow(at(ONE_DAY_MS))
        await insertClaimRow(at(ONE_DAY_MS + 1000))
        await insertClaimRow(at(89 * ONE_DAY_MS))
        await insertClaimRow(at(90 * ONE_DAY_MS))
        await insertClaimRow({ app: 'cleo', ...at(0) })
        const res = await staffGet('/api/staff/apps/brigit/stats').expect(200)

        expect(res.body.total).toBe(5)
        expect(res.body.daily).toEqual([
          { date: utcDay(NOW - 89 * ONE_DAY_MS), count: 1 },
          ...(utcDay(NOW - ONE_DAY_MS) === utcDay(NOW - ONE_DAY_MS - 1000)
            ? [{ date: utcDay(NOW - ONE_DAY_MS), count: 2 }]
            : [
                { date: utcDay(NOW - ONE_DAY_MS - 1000), count: 1 },
                { date: utcDay(NOW - ONE_DAY_MS), count: 1 },
              ]),
          { date: utcDay(NOW), count: 1 },
        ])
      })
    })

    describe('screenshots', () => {
      it('serves the exact bytes with the stored type, nosniff and no caching, and audits the view', async () => {
        const bytes = makePng({ width: 3, height: 2 })
        const key = await ctx.storage.save({ app: 'brigit', extension: 'png', bytes })
        const id = await insertClaimRow({ screenshot_key: key, screenshot_type: 'image/png' })
        const res = await staffGet(`/api/staff/claims/${id}/screenshot`)
          .buffer(true)
          .parse(readBytes)
          .expect(200)

        expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0)
        expect(res.headers['content-type']).toBe('image/png')
        expect(res.headers['x-content-type-options']).toBe('nosniff')
        expect(res.headers['cache-control']).toBe('private, no-store')
        expect(res.headers['content-disposition']).toBe(`inline; filename="claim-${id}.png"`)
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; img-src 'self'; sandbox")
        expect(await auditRows('screenshot_view')).toMatchObject([
          { app: 'brigit', detail: `claim ${id}`, client_address: expect.any(String) },
        ])
      })

      it('answers 404 for a claim that does not exist, a bad id, or a file that is gone', async () => {
        const gone = await insertClaimRow({ screenshot_key: 'brigit-screenshots/gone.png' })
        for (const id of [gone + 1000, 'abc', gone]) {
          const res = await staffGet(`/api/staff/claims/${id}/screenshot`)
          expect([id, res.status]).toEqual([id, 404])
        }
        expect(await auditRows('screenshot_view')).toEqual([])
      })
    })

    describe('CSV export', () => {
      async function exportCsv(query: Record<string, string> = {}) {
        return staffGet('/api/staff/apps/brigit/export.csv').query(query).expect(200)
      }

      it('starts with the UTF-8 byte-order mark, and accented names arrive as written', async () => {
        await insertClaimRow({ first_name: 'José', last_name: 'Núñez' })
        const res = await staffGet('/api/staff/apps/brigit/export.csv')
          .buffer(true)
          .parse((response, done) => {
            const chunks: Buffer[] = []
            response.on('data', (chunk: Buffer) => chunks.push(chunk))
            response.on('end', () => done(null, Buffer.concat(chunks)))
          })
          .expect(200)
        const bytes = res.body as Buffer
        expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
        expect(bytes.subarray(3).toString('utf8')).toContain(',José,Núñez,')
      })

      it('answers the browser’s check (check=1) with 204, reading and auditing nothing', async () => {
        await insertClaimRow()
        const res = await staffGet('/api/staff/apps/brigit/export.csv').query({ check: '1' }).expect(204)
        expect(res.text).toBe('')
        expect(await auditRows('export')).toEqual([])
        await staffGet('/api/staff/apps/nope/export.csv').query({ check: '1' }).expect(404)
        await request(ctx.app).get('/api/staff/apps/brigit/export.csv?check=1').expect(401)
      })

      it('has the exact header, one line per claim, newest first, and a dated file name', async () => {
        const first = await insertClaimRow()
        const second = await insertClaimRow({ first_name: 'Ann', phone_number: '(555) 000-2222' })
        await insertClaimRow({ app: 'cleo' })
        const res = await exportCsv()

        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
        expect(fileName(res)).toBe(`brigit-submissions-${utcDay(Date.now())}.csv`)
        const lines = withoutBom(res.text).split('\r\n')
        expect(lines[0]).toBe(CSV_HEADER)
        expect(lines).toHaveLength(4)
        expect(lines[3]).toBe('')
        const row = await ctx.db
          .selectFrom('claims')
          .selectAll()
          .where('id', '=', second)
          .executeTakeFirstOrThrow()
        expect(lines[1]).toBe(
          [
            second,
            losAngeles(new Date(row.created_at)),
            'Ann',
            'Rivers',
            row.email,
            '(555) 000-2222',
            3,
            6,
            `http://${SITE}/api/staff/claims/${second}/screenshot`,
            'America/Los_Angeles',
            '',
            'en',
            'No',
            '',
            'received',
            '',
            '',
            '',
            // no main form filed with this e-mail and phone
            '',
            // and no campaign parameters
            ...Array<string>(8).fill(''),
            // nor a fraud score yet
            '',
            '',
          ].join(','),
        )
        expect(lines[2]).toMatch(new RegExp(`^${first},`))
      })

      it('neutralises cells a spreadsheet would run as formulas', async () => {
        await insertClaimRow({
          first_name: '=HYPERLINK("x")',
          last_name: '+SUM(A1)',
          email: '@cmd',
          phone_number: '-1',
        })
        await insertClaimRow({ first_name: '\tTab', last_name: '\rReturn' })
        const { text } = await exportCsv()

        expect(text).toContain(`,"'=HYPERLINK(""x"")",'+SUM(A1),'@cmd,'-1,`)
        expect(text).toContain(`,'\tTab,"'\rReturn",`)
      })

      it('quotes commas, quotes and line breaks as RFC 4180 says', async () => {
        await insertClaimRow({ first_name: 'Ann, Jr.', last_name: 'O"Brien\nSmith' })
        const { text } = await exportCsv()

        expect(text).toContain(`,"Ann, Jr.","O""Brien\nSmith",`)
      })

      // PostgreSQL renders these records itself: the expected bytes are the ones SQLite's renderer gives
      it('writes backslashes, tabs, line breaks, accents, emoji and negative counts byte for byte', async () => {
        const tricky = await insertClaimRow({
          created_at: '2026-11-20T08:09:10.007Z',
          first_name: 'Zoë \\ back\\slash',
          last_name: 'tab\tinside',
          email: 'a,b"c@x.test',
          phone_number: '@home\r\nnext',
          cash_advance_count: -2,
          membership_months: 0,
          locale: 'es',
        })
        const plain = await insertClaimRow({
          created_at: '2026-11-21T00:00:00.000Z',
          first_name: '',
          last_name: '😀 Ñandú',
          email: '\\N',
          phone_number: '\\.',
        })
        const lines = withoutBom((await exportCsv()).text).split('\r\n')

        expect(lines.slice(1)).toEqual([
          `${plain},2026-11-20 16:00:00,,😀 Ñandú,\\N,\\.,3,6,http://${SITE}/api/staff/claims/${plain}/screenshot,America/Los_Angeles,,en,No,,received,,,,,,,,,,,,,,`,
          `${tricky},2026-11-20 00:09:10,Zoë \\ back\\slash,tab\tinside,"a,b""c@x.test","'@home`,
          `next",'-2,0,http://${SITE}/api/staff/claims/${tricky}/screenshot,America/Los_Angeles,,es,No,,received,,,,,,,,,,,,,,`,
          '',
        ])
      })

      it('puts an origin that needs quotes around every screenshot link’s whole cell', async () => {
        const id = await insertClaimRow()
        const res = await staffGet('/api/staff/apps/brigit/export.csv').set('Host', 'a,"b"').expect(200)

        expect(withoutBom(res.text).split('\r\n')[1]).toMatch(
          new RegExp(
            `,"http://a,""b""/api/staff/claims/${id}/screenshot",America/Los_Angeles,,en,No,,received,,,,,,,,,,,,,,$`,
          ),
        )
      })

      it('exports what the search shows', async () => {
        const match = await insertClaimRow({ email: 'wanted@example.com' })
        await insertClaimRow()
        const lines = withoutBom((await exportCsv({ q: 'WANTED' })).text).split('\r\n')

        expect(lines.slice(1, -1).map((line) => Number(line.split(',')[0]))).toEqual([match])
      })

      it('streams 3,000 claims complete, in id order, and audits the export with its row count', async () => {
        await seedMany(3000)
        const res = await exportCsv()

        expect(res.headers['transfer-encoding']).toBe('chunked')
        const lines = withoutBom(res.text).split('\r\n')
        expect(lines).toHaveLength(3002)
        const ids = lines.slice(1, -1).map((line) => Number(line.split(',')[0]))
        expect(new Set(ids).size).toBe(3000)
        expect(ids).toEqual([...ids].sort((a, b) => b - a))
        expect(await auditRows('export')).toMatchObject([{ app: 'brigit', detail: '3000 rows' }])
      })

      // SQLite writes a whole export of this size before the client's leaving is seen
      if (dialect === 'postgres')
        it('stops reading when the client leaves early, audits it, and leaves no transaction open', async () => {
          // about 12 MB of CSV: more than loopback's socket buffers take, so the server is still sending
          await seedMany(60_000)
          const server = http.createServer(ctx.app).listen(0, '127.0.0.1')
          await once(server, 'listening')
          try {
            const { port } = server.address() as AddressInfo
            await new Promise<void>((resolve, reject) => {
              const req = http.get(
                {
                  host: '127.0.0.1',
                  port,
                  path: '/api/staff/apps/brigit/export.csv',
                  headers: { ...SAME_SITE, Cookie: cookie },
                },
                (res) => {
                  expect(res.statusCode).toBe(200)
                  req.destroy()
                  resolve()
                },
              )
              req.on('error', reject)
            })
            await vi.waitFor(async () => {
              const [audit] = await auditRows('export')
              expect(audit?.detail).toMatch(/client left early$/)
            })
          } finally {
            server.close()
          }
          // the export's connection is closed, and with it the COPY and its transaction
          await vi.waitFor(async () => {
            const open = await sql<{ count: number }>`
            SELECT count(*)::int AS count FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()
              AND (state LIKE 'idle in transaction%' OR query LIKE 'COPY%')`.execute(ctx.db)
            expect(open.rows[0]?.count).toBe(0)
          })
          // 60,000 claims seeded and an export begun: slow on a machine busy with the rest of the suite
        }, 120_000)

      it('streams a search matching more than one page complete', async () => {
        await seedMany(2500, (i) => ({ last_name: i % 2 ? 'Exported' : 'Kept' }))
        const lines = withoutBom((await exportCsv({ q: 'XPORT' })).text).split('\r\n')

        const lastNames = lines.slice(1, -1).map((line) => line.split(',')[3])
        expect(lastNames).toHaveLength(1250)
        expect(new Set(lastNames)).toEqual(new Set(['Exported']))
        if (dialect === 'sqlite') {
          // the match list lives in a temporary table only while the export runs
          const temp = await sql<{ name: string }>`SELECT name FROM sqlite_temp_master`.execute(ctx.db)
          expect(temp.rows).toEqual([])
        }
      })

      it('answers 404 for an unknown app, before any CSV', async () => {
        const res = await staffGet('/api/staff/apps/nope/export.csv')
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('FORM_NOT_FOUND')
      })
    })

    describe('the main page’s admin mode (until the intake table exists)', () => {
      it('lists no intake submissions', async () => {
        const res = await staffGet('/api/staff/intake-submissions').query({ page: 2 }).expect(200)
        expect(res.body).toEqual({
          success: true,
          data: [],
          count: 0,
          total: 0,
          page: 2,
          pageSize: 50,
          error: null,
        })
      })

      it('downloads app-submissions-view.csv with only its header', async () => {
        const res = await staffGet('/api/staff/intake-submissions/export.csv').expect(200)
        expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
        expect(fileName(res)).toBe('app-submissions-view.csv')
        expect(res.text).toBe('\ufeffName,Email,Phone,Apps Used,Date,Time Zone,App,Step 2 Status\r\n')
      })
    })
  })
}
