import crypto from 'node:crypto'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { UnclaimedFunds } from '../../../src/api/payouts-year-end.ts'
import type { ErrorBody } from '../../../src/app-error.ts'
import { NO_W9_NOTE } from '../../../server/payouts/form-1099.ts'
import { seedClaim } from '../support/claims.ts'
import { createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { loginStaff, signInNewAccount } from '../support/staff-sign-in.ts'
import { asBuffer } from '../support/unzip.ts'
import { insertAchChoice, insertPayoutItem, insertTaxForm } from '../support/year-end-fixtures.ts'

const SITE = 'year-end.test'
const DAY_MS = 24 * 60 * 60 * 1000
const APP = 'earnin'
const MID_2026 = Date.parse('2026-06-15T18:00:00Z')
/** 23:30 on December 31, 2026 in Los Angeles (the firm's zone): still 2026 there. */
const LAST_HALF_HOUR_2026 = Date.parse('2027-01-01T07:30:00Z')
/** 00:30 on January 1, 2027 in Los Angeles. */
const FIRST_HOUR_2027 = Date.parse('2027-01-01T08:30:00Z')
const ACCOUNT_NUMBER = '000123456789'

/** RFC 4180 records (quoted cells, doubled quotes), after the byte-order mark. */
function csvRows(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  const body = text.replace(/^\ufeff/, '')
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"'
        i++
      } else if (char === '"') quoted = false
      else cell += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      row.push(cell)
      cell = ''
    } else if (char === '\r' && body[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      i++
    } else cell += char
  }
  return rows
}

/** Each record as an object keyed by the header. */
function records(text: string): Record<string, string>[] {
  const [header = [], ...rows] = csvRows(text)
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])))
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: payouts at year end`, () => {
    let ctx: TestContext
    let admin: string
    /** W-9 (Ana Full, CA): paid $1,500.00 mid-2026 and $500.00 in the year's last half hour. */
    let ana: number
    /** W-9 (Ben Short, TX): paid $1,999.99 in 2026; a check sent 89 days ago not yet paid. */
    let ben: number
    /** No W-9, no address: paid $760.00 with $240.00 withheld; a payment that failed, nothing in its place. */
    let cal: number
    /** W-9 (Fay Bank, CA), ACH: a returned transfer; a failed one paid by a check. */
    let fay: number
    /** Came by the main form's link (Honolulu, HI): a check sent 91 days ago not paid. */
    let gus: number
    /** One taxpayer (Dee Twice): $1,200.00 on an Earnin claim and $1,200.00 on a Brigit claim in 2026. */
    let dee: [number, number]
    /** Two people each paid $1,200.00 on one claim in 2026, each under the threshold. */
    let eli: number
    let flo: number

    const get = (url: string, cookie = admin) =>
      request(ctx.app).get(url).set({ Host: SITE }).set('Cookie', cookie)
    const api = `/api/staff/apps/${APP}/payouts`
    const form1099 = '/api/staff/payouts/1099.csv'
    const claimOf = async (
      n: number,
      firstName: string,
      lastName: string,
      intake?: CreatedIntake,
      app = APP,
    ) =>
      (
        await seedClaim(ctx, {
          app,
          status: ctx.reviews(app).initial,
          intake,
          fields: {
            firstName,
            lastName,
            email: `${firstName.toLowerCase()}@mail.test`,
            phoneNumber: `(808) 555-01${String(n).padStart(2, '0')}`,
          },
        })
      ).id

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      const now = Date.now()
      ana = await claimOf(1, 'Ana', 'Full')
      ben = await claimOf(2, 'Ben', 'Short')
      cal = await claimOf(3, 'Cal', 'Nowform')
      fay = await claimOf(4, 'Fay', 'Bank')
      const intake = await request(ctx.app)
        .post('/api/intake')
        .send(
          makeIntakeData({
            email: 'gus@mail.test',
            phone: '(808) 555-0105',
            firstName: 'Gus',
            lastName: 'Island',
            cashAdvanceApps: [APP],
          }),
        )
        .expect(201)
      gus = await claimOf(5, 'Gus', 'Island', intake.body as CreatedIntake)
      dee = [await claimOf(6, 'Dee', 'Twice'), await claimOf(7, 'Dee', 'Twice', undefined, 'brigit')]
      eli = await claimOf(8, 'Eli', 'Under')
      flo = await claimOf(9, 'Flo', 'Under', undefined, 'brigit')

      await insertTaxForm(ctx, { claimId: ana, legalName: 'Ana Full', tin: '123-45-6789', state: 'CA' })
      await insertTaxForm(ctx, { claimId: ben, legalName: 'Ben Short', tin: '234-56-7890', state: 'TX' })
      await insertTaxForm(ctx, { claimId: fay, legalName: 'Fay Bank', tin: '345-67-8901', state: 'CA' })
      await insertAchChoice(ctx, { claimId: fay, accountNumber: ACCOUNT_NUMBER })
      // the same SSN typed two ways on two claims' W-9s; the later one (Brigit's) names her
      await insertTaxForm(ctx, {
        claimId: dee[0],
        legalName: 'Dee Twice',
        tin: '456-78-9012',
        state: 'NV',
        certifiedAt: MID_2026 - DAY_MS,
      })
      await insertTaxForm(ctx, {
        claimId: dee[1],
        legalName: 'Dee Twice-Moved',
        tin: '456789012',
        state: 'OR',
        certifiedAt: MID_2026,
      })
      await insertTaxForm(ctx, { claimId: eli, legalName: 'Eli Under', tin: '567-89-0123', state: 'CA' })
      await insertTaxForm(ctx, { claimId: flo, legalName: 'Flo Under', tin: '678-90-1234', state: 'CA' })

      const item = (fields: Parameters<typeof insertPayoutItem>[1]) => insertPayoutItem(ctx, fields)
      // the 1099 file
      await item({ app: APP, claimId: ana, netCents: 150_000, status: 'paid', at: MID_2026 })
      await item({ app: APP, claimId: ana, netCents: 50_000, status: 'paid', at: LAST_HALF_HOUR_2026 })
      await item({ app: APP, claimId: ana, netCents: 99_999, status: 'paid', at: FIRST_HOUR_2027 })
      await item({ app: APP, claimId: ben, netCents: 199_999, status: 'paid', at: MID_2026 })
      await item({
        app: APP,
        claimId: cal,
        netCents: 76_000,
        withholdingCents: 24_000,
        status: 'paid',
        at: MID_2026,
      })
      for (const [claimId, app] of [
        [dee[0], APP],
        [dee[1], 'brigit'],
        [eli, APP],
        [flo, 'brigit'],
      ] as const) {
        await item({ app, claimId, netCents: 120_000, status: 'paid', at: MID_2026 })
      }
      // the unclaimed funds: Ana's PayPal payment left unclaimed four years ago (past the dormancy)
      await item({
        app: APP,
        claimId: ana,
        method: 'paypal',
        netCents: 12_345,
        status: 'unclaimed',
        at: now - 4 * 365 * DAY_MS,
      })
      await item({
        app: APP,
        claimId: fay,
        method: 'ach',
        netCents: 20_000,
        status: 'returned',
        at: now - 10 * DAY_MS,
      })
      const failed = await item({
        app: APP,
        claimId: fay,
        method: 'ach',
        netCents: 30_000,
        status: 'failed',
        at: now - 20 * DAY_MS,
      })
      await item({
        app: APP,
        claimId: fay,
        netCents: 30_000,
        status: 'paid',
        at: now - 5 * DAY_MS,
        checkNumber: 1002,
        replacesItemId: failed,
      })
      await item({
        app: APP,
        claimId: cal,
        method: 'venmo',
        netCents: 1_000,
        status: 'failed',
        at: now - DAY_MS,
      })
      await item({
        app: APP,
        claimId: gus,
        netCents: 50_001,
        status: 'sent',
        at: now - 91 * DAY_MS,
        checkNumber: 1007,
      })
      await item({
        app: APP,
        claimId: ben,
        netCents: 7_000,
        status: 'sent',
        at: now - 89 * DAY_MS,
        checkNumber: 1008,
      })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('lists a payee paid $2,000.00 in 2026 (the firm’s year) with the full TIN, and not one paid $1,999.99', async () => {
      const res = await asBuffer(get(`${form1099}?year=2026`)).expect(200)
      expect(res.headers['content-disposition']).toContain('1099-2026.csv')
      const rows = records((res.body as Buffer).toString('utf8'))
      expect(rows.map((row) => row['Account Number'])).toEqual([String(ana), String(cal), String(dee[0])])
      expect(rows[0]).toEqual({
        'Payer Name': 'Cash Advance Claims Law Group',
        'Payer Address': '100 Example Plaza, Suite 400, Los Angeles, CA 90012',
        'Recipient TIN Type': 'SSN',
        'Recipient TIN': '123-45-6789',
        'Recipient Name': 'Ana Full',
        'Recipient Address': '12 Main St',
        'Recipient Address Line 2': 'Unit 3',
        'Recipient City': 'Springfield',
        'Recipient State': 'CA',
        'Recipient ZIP': '90001',
        'Account Number': String(ana),
        'Box 3 Other Income': '2000.00',
        'Box 4 Federal Income Tax Withheld': '0.00',
        Note: '',
        'Claim IDs': String(ana),
      })
    })

    it('adds up one taxpayer’s claims of every app into one row, and lists no one whose own total is under the threshold', async () => {
      const rows = records((await get(`${form1099}?year=2026`).expect(200)).text)
      const dees = rows.filter((row) => row['Recipient TIN'] === '456-78-9012')
      // $1,200.00 from Earnin and $1,200.00 from Brigit: one payee, $2,400.00, named by her later W-9
      expect(dees).toEqual([
        expect.objectContaining({
          'Recipient TIN Type': 'SSN',
          'Recipient Name': 'Dee Twice-Moved',
          'Recipient State': 'OR',
          'Account Number': String(dee[0]),
          'Box 3 Other Income': '2400.00',
          'Box 4 Federal Income Tax Withheld': '0.00',
          'Claim IDs': `${dee[0]} ${dee[1]}`,
        }),
      ])
      // Eli and Flo were paid $2,400.00 between them, but each only $1,200.00
      for (const claimId of [eli, flo]) {
        expect(rows.some((row) => (row['Claim IDs'] ?? '').split(' ').includes(String(claimId)))).toBe(false)
      }
      for (const tin of ['567-89-0123', '678-90-1234']) {
        expect(rows.some((row) => row['Recipient TIN'] === tin)).toBe(false)
      }
    })

    it('puts backup withholding in box 4 and lists its payee under the threshold, with an empty TIN and a note', async () => {
      const res = await get(`${form1099}?year=2026`).expect(200)
      const row = records(res.text).find((record) => record['Account Number'] === String(cal))
      expect(row).toMatchObject({
        'Recipient TIN': '',
        'Recipient Name': 'Cal Nowform',
        'Box 3 Other Income': '1000.00',
        'Box 4 Federal Income Tax Withheld': '240.00',
        Note: NO_W9_NOTE,
      })
    })

    it('puts a payment in the year of the firm’s zone: 00:30 on January 1 is next year', async () => {
      const res = await get(`${form1099}?year=2027`).expect(200)
      // Ana's $999.99 of 2027 is under the threshold; nobody else was paid in 2027
      expect(records(res.text)).toEqual([])
    })

    it('puts each download on record with its row count and the SHA-256 of the file sent', async () => {
      const res = await asBuffer(get(`${form1099}?year=2026`)).expect(200)
      const sha256 = crypto
        .createHash('sha256')
        .update(res.body as Buffer)
        .digest('hex')
      const entry = await ctx.db
        .selectFrom('audit_log')
        .select(['app', 'detail'])
        .where('action', '=', 'form_1099_download')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(entry).toEqual({ app: null, detail: `1099 file for 2026: 3 rows, SHA-256 ${sha256}` })
    })

    it('refuses the 1099 file to an account without the payments right on every app, and gives it to one with it', async () => {
      const exporter = await signInNewAccount(ctx, SITE, {
        email: 'exporter@firm.test',
        password: 'exporter password 1',
        name: 'Ex Porter',
        role: 'staff',
        apps: [{ app: APP, canExport: true, canDecide: true }],
      })
      const res = await get(`${form1099}?year=2026`, exporter).expect(403)
      expect((res.body as ErrorBody).error.message).toMatch(/payments right on every app/)
      await get(`${api}/unclaimed.csv`, exporter).expect(200)

      // one app's payments right is not enough: the file adds up and lists every app's payees
      const onePayer = await signInNewAccount(ctx, SITE, {
        email: 'payer@firm.test',
        password: 'payer password 1',
        name: 'Pay Er',
        role: 'staff',
        apps: [{ app: APP, canExport: false, canPay: true }],
      })
      const partial = await get(`${form1099}?year=2026`, onePayer).expect(403)
      expect((partial.body as ErrorBody).error.message).toContain('brigit')
      await get(`${api}/unclaimed.csv`, onePayer).expect(403)

      const payer = await signInNewAccount(ctx, SITE, {
        email: 'all.payer@firm.test',
        password: 'payer password 2',
        name: 'All Payer',
        role: 'staff',
        apps: [...ctx.forms.keys()].map((app) => ({ app, canExport: false, canPay: true })),
      })
      await get(`${form1099}?year=2026`, payer).expect(200)
    })

    it('refuses a year like "20x6" with a 400 that names it', async () => {
      const res = await get(`${form1099}?year=20x6`).expect(400)
      expect((res.body as ErrorBody).error.message).toMatch(/"year" must be a calendar year .*"20x6" is not/)
      await get(form1099).expect(400)
    })

    it('groups the unclaimed funds by the claimant’s state with exact totals', async () => {
      const res = await get(`${api}/unclaimed.json`).expect(200)
      const report = res.body as UnclaimedFunds
      expect(report.states).toEqual([
        // Ana's unclaimed $123.45 (past the 3 years) and Fay's returned $200.00; Fay's failed transfer was paid by check
        { state: 'CA', count: 2, totalCents: 32_345, dormantCount: 1, dormantCents: 12_345 },
        // Gus's check, its address the one he confirmed through his link
        { state: 'HI', count: 1, totalCents: 50_001, dormantCount: 0, dormantCents: 0 },
        // Cal: no W-9 and no address
        { state: '', count: 1, totalCents: 1_000, dormantCount: 0, dormantCents: 0 },
      ])
      expect(report).toMatchObject({ count: 4, totalCents: 83_346, uncashedCheckDays: 90, dormancyYears: 3 })
    })

    it('lists a check sent 91 days ago and not paid, but not one sent 89 days ago', async () => {
      const res = await get(`${api}/unclaimed.csv`).expect(200)
      const rows = records(res.text)
      const checks = rows.filter((row) => row.Method === 'check')
      expect(checks).toEqual([
        expect.objectContaining({
          State: 'HI',
          'Claim ID': String(gus),
          City: 'Honolulu',
          'Paid To': 'check 1007',
          Reason: 'check not cashed',
          Amount: '500.01',
        }),
      ])
      expect(rows.some((row) => row['Claim ID'] === String(ben))).toBe(false)
    })

    it('shows no TIN and no full account number in the unclaimed funds’ detail', async () => {
      const res = await get(`${api}/unclaimed.csv`).expect(200)
      const returned = records(res.text).find((row) => row.Reason === 'returned by the bank')
      expect(returned).toMatchObject({
        State: 'CA',
        Name: 'Fay Bank',
        'Paid To': '••••6789',
        Amount: '200.00',
      })
      expect(res.text).not.toContain(ACCOUNT_NUMBER)
      expect(res.text).not.toContain('123456789')
      for (const tin of ['123-45-6789', '345-67-8901', '345678901']) expect(res.text).not.toContain(tin)
    })
  })
}
