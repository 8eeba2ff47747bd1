import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'claims-csv.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const ZONE = FIRM_SETTINGS.timeZone
/** The columns of the site the product replaces, in its order (SPEC, "Client-only actions"). */
const SEED_COLUMNS = [
  'ID',
  'Submission Date',
  'First Name',
  'Last Name',
  'Email',
  'Phone Number',
  'Cash Advance Count',
  'Membership Months',
  'Screenshot URL',
]
const HEADER = [
  ...SEED_COLUMNS,
  'Time Zone',
  'Confirmed At',
  'Language',
  'Flagged',
  'Flagged Claim IDs',
  'Status',
  'Reason',
  'Status Date',
  'Assignee',
  'Main Form Reference',
  'UTM Source',
  'UTM Medium',
  'UTM Campaign',
  'UTM Content',
  'UTM Term',
  'GCLID',
  'FBCLID',
  'Referrer',
  'Fraud Score',
  'Fraud Reasons',
].join(',')

/** A time as a wall clock in the firm's zone reads it, by Intl: 'YYYY-MM-DD HH:MM:SS' (Sweden's format). */
function wallClock(iso: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(iso))
}

/** The same claims, with the same ids, in each database: times on both sides of the zone's clock changes. */
const CLAIMS = [
  { id: 7001, created_at: '2026-03-08T09:59:59.999Z', first_name: 'Winter', last_name: 'Before' },
  { id: 7002, created_at: '2026-03-08T10:00:00.000Z', first_name: 'Summer', last_name: 'After' },
  { id: 7003, created_at: '2026-11-01T08:30:00.000Z', first_name: 'Zoë \\ "q"', last_name: '=1+1' },
  { id: 7004, created_at: '2026-11-01T09:30:00.000Z', first_name: 'Ann, Jr.', last_name: 'O\nBrien' },
  { id: 7005, created_at: '2026-11-28T22:05:09.456Z', first_name: 'Late', last_name: 'Evening' },
]
// 7003 matches 7001 and 7005; 7005 matches 7003
const MATCHES = [
  { claim_id: 7003, other_claim_id: 7001 },
  { claim_id: 7003, other_claim_id: 7005 },
  { claim_id: 7005, other_claim_id: 7003 },
]
const CONFIRMED = { id: 7002, at: '2026-07-04T19:05:09.999Z' }
// the main-form intakes of two claimants: a reference of six digits and one of seven
const INTAKES = [
  { id: 7002, intake_id: 42 },
  { id: 7005, intake_id: 1234567 },
]
// where two claimants came from (keys left out, values to quote or neutralise), and a claim assigned to
// an account whose e-mail needs both: PostgreSQL renders these from JSON and a look-up, SQLite in JavaScript
const ATTRIBUTED = [
  {
    id: 7004,
    attribution: {
      utm_source: 'fb',
      utm_campaign: '=spring, "q"',
      utm_term: 'line\nbreak',
      referrer: 'ex.test',
    },
  },
  { id: 7001, attribution: { gclid: '-1+1', utm_content: 'Zoë \\ ok' } },
]
const ASSIGNED = { id: 7002, email: '=lead,"x"@firm.test' }
// two claims scored (one with deductions, their codes stored out of order), the others not yet
const SCORED = [
  { id: 7003, score: 350, codes: ['phone_shared', 'device_shared', 'email_variant'] },
  { id: 7004, score: 1000, codes: [] },
]

async function exportCsv(ctx: TestContext, cookie: string, query = ''): Promise<string> {
  const res = await request(ctx.app)
    .get(`/api/staff/apps/brigit/export.csv${query}`)
    .set(SAME_SITE)
    .set('Cookie', cookie)
    .expect(200)
  expect(res.text.startsWith('\ufeff')).toBe(true)
  return res.text.slice(1)
}

describe('the claims CSV', () => {
  const contexts = new Map<string, { ctx: TestContext; cookie: string }>()

  beforeAll(async () => {
    for (const dialect of DIALECTS) {
      const ctx = await createTestContext(dialect)
      contexts.set(dialect, { ctx, cookie: await loginStaff(ctx.app, { site: SITE }) })
      for (const claim of CLAIMS) {
        await insertClaim(ctx.db, {
          ...claim,
          app: 'brigit',
          email: `c${claim.id}@mail.test`,
          phone_number: `(212) 555-${claim.id}`,
          cash_advance_count: 3,
          membership_months: 6,
          screenshot_key: 'brigit-screenshots/missing.png',
          screenshot_type: 'image/png',
        })
      }
      await ctx.db
        .insertInto('screenshot_matches')
        .values(MATCHES.map((match) => ({ ...match, kind: 'exact', distance: 0 })))
        .execute()
      await ctx.db
        .updateTable('claims')
        .set({ confirmed_at: CONFIRMED.at })
        .where('id', '=', CONFIRMED.id)
        .execute()
      for (const { id, intake_id } of INTAKES) {
        await ctx.db.updateTable('claims').set({ intake_id }).where('id', '=', id).execute()
      }
      for (const { id, attribution } of ATTRIBUTED) {
        await ctx.db
          .updateTable('claims')
          .set({ attribution: JSON.stringify(attribution) })
          .where('id', '=', id)
          .execute()
      }
      const assignee = await ctx.db
        .insertInto('staff_accounts')
        .values({
          email: ASSIGNED.email,
          name: 'Lead',
          role: 'staff',
          password_hash: 'x',
          created_at: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await ctx.db
        .updateTable('claims')
        .set({ assignee_id: assignee.id })
        .where('id', '=', ASSIGNED.id)
        .execute()
      for (const { id, score, codes } of SCORED) {
        await ctx.db.updateTable('claims').set({ fraud_score: score }).where('id', '=', id).execute()
        for (const code of codes) {
          await ctx.db.insertInto('fraud_reasons').values({ claim_id: id, code, points: 100 }).execute()
        }
      }
    }
  })
  afterAll(async () => {
    for (const { ctx } of contexts.values()) await ctx.close()
  })

  it('gives the same bytes on SQLite and PostgreSQL, the whole export and the flagged one', async () => {
    const [sqlite, postgres] = DIALECTS.map((dialect) => contexts.get(dialect)!)
    expect(await exportCsv(postgres!.ctx, postgres!.cookie)).toBe(
      await exportCsv(sqlite!.ctx, sqlite!.cookie),
    )
    expect(await exportCsv(postgres!.ctx, postgres!.cookie, '?flagged=1')).toBe(
      await exportCsv(sqlite!.ctx, sqlite!.cookie, '?flagged=1'),
    )
  })

  for (const dialect of DIALECTS) {
    describe(dialect, () => {
      const lines = async (query = '') => {
        const { ctx, cookie } = contexts.get(dialect)!
        return (await exportCsv(ctx, cookie, query)).split('\r\n')
      }

      it("starts with the seed's nine columns verbatim and in their order, then Time Zone, then the added ones", async () => {
        const [header] = await lines()
        expect(header).toBe(HEADER)
        const columns = header!.split(',')
        expect(columns.slice(0, 9)).toEqual(SEED_COLUMNS)
        expect(columns[9]).toBe('Time Zone')
      })

      it("names the firm's zone, the one of every time in the record, in each record's Time Zone cell", async () => {
        const [, ...records] = await lines()
        // the cell after the screenshot link: a quoted name may hold a comma
        const zones = records
          .filter((line) => /^\d{4},/.test(line))
          .map((line) => /\/screenshot,([^,]*),/.exec(line)?.[1])
        expect(zones).toEqual(CLAIMS.map(() => ZONE))
      })

      it('writes every claim in that order, its times as Excel reads them in the firm’s zone', async () => {
        const link = (id: number) => `http://${SITE}/api/staff/claims/${id}/screenshot`
        const rest = (id: number) => `c${id}@mail.test,(212) 555-${id},3,6,${link(id)},${ZONE}`
        expect(await lines()).toEqual([
          HEADER,
          `7005,2026-11-28 14:05:09,Late,Evening,${rest(7005)},,en,Yes,7003,received,,,,IN-1234567,,,,,,,,,,`,
          `7004,2026-11-01 01:30:00,"Ann, Jr.","O\nBrien",${rest(7004)},,en,No,,received,,,,,fb,,"'=spring, ""q""",,"line\nbreak",,,ex.test,1000,`,
          `7003,2026-11-01 01:30:00,"Zoë \\ ""q""",'=1+1,${rest(7003)},,en,Yes,7001 7005,received,,,,,,,,,,,,,350,device_shared email_variant phone_shared`,
          `7002,2026-03-08 03:00:00,Summer,After,${rest(7002)},2026-07-04 12:05:09,en,No,,received,,,"'=lead,""x""@firm.test",IN-000042,,,,,,,,,,`,
          `7001,2026-03-08 01:59:59,Winter,Before,${rest(7001)},,en,No,,received,,,,,,,,Zoë \\ ok,,'-1+1,,,,`,
          '',
        ])
      })

      it('writes the times Intl gives for the firm’s zone, to the second', async () => {
        const [, ...records] = await lines()
        const dates = records.filter((line) => /^\d{4},/.test(line)).map((line) => line.split(',')[1])
        expect(dates).toEqual(CLAIMS.map(({ created_at }) => wallClock(created_at)).reverse())
      })

      it('exports only the flagged claims with ?flagged=1, each with Yes and its matches', async () => {
        const records = (await lines('?flagged=1')).slice(1, -1)
        expect(records.map((line) => line.split(',').slice(-17, -15))).toEqual([
          ['Yes', '7003'],
          ['Yes', '7001 7005'],
        ])
        expect(records.map((line) => line.split(',')[0])).toEqual(['7005', '7003'])
      })
    })
  }
})
