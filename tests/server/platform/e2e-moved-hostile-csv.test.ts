import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatPhone } from '../../../src/phone.ts'
import {
  EMAILS,
  fullName,
  NAMES,
  neutralised,
  PAYLOADS,
  parseCsv,
} from '../../e2e/security/hostile-values.ts'
import { createTestContext, makeClaimData, readFixture, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'

const SITE = 'hostile.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const BRIGIT_PHONES = ['3125550170', '3125550171', '3125550172', '3125550173', '3125550174']
const INTAKE_PHONES = NAMES.map((_, i) => `(312) 555-018${i}`)
/** The address and city each intake claimant typed: payloads too, shown on no page and in no export. */
const addressOf = (i: number) =>
  `${PAYLOADS[(2 * i + 2) % PAYLOADS.length]} ${PAYLOADS[(2 * i + 3) % PAYLOADS.length]}`
const cityOf = (i: number) => PAYLOADS[2 * i]!

/** The CSV's rows after the UTF-8 byte-order mark every export starts with. */
function csvRows(text: string): string[][] {
  expect(text.startsWith('\ufeff')).toBe(true)
  return parseCsv(text.slice(1))
}

/**
 * The exports of claims and intakes whose names and e-mails are hostile (security/hostile-text.spec.ts
 * shows the same claimants on the pages): every formula is neutralised and every value quoted as needed.
 */
describe('hostile names and e-mails in the staff CSV exports', () => {
  let ctx: TestContext
  let cookie: string

  beforeAll(async () => {
    ctx = await createTestContext('sqlite')
    for (let i = 0; i < NAMES.length; i++) {
      await request(ctx.app)
        .post('/api/forms/brigit/submissions')
        .field(
          'data',
          JSON.stringify(
            makeClaimData({ ...NAMES[i], email: EMAILS[i], phoneNumber: formatPhone(BRIGIT_PHONES[i]!) }),
          ),
        )
        .attach('screenshot', readFixture('bank-statement.png'), 'statement.png')
        .expect(201)
      await request(ctx.app)
        .post('/api/intake')
        .send(
          makeIntakeData({
            ...NAMES[i],
            email: EMAILS[i],
            phone: INTAKE_PHONES[i],
            address: addressOf(i),
            city: cityOf(i),
          }),
        )
        .expect(201)
    }
    cookie = await loginStaff(ctx.app, { site: SITE })
  })
  afterAll(async () => {
    await ctx?.close()
  })

  const staffGet = (url: string) => request(ctx.app).get(url).set(SAME_SITE).set('Cookie', cookie)

  it('exports the Brigit CSV with every formula neutralised and every value quoted as needed', async () => {
    const res = await staffGet('/api/staff/apps/brigit/export.csv').expect(200)
    const [header, ...rows] = csvRows(res.text)
    expect(header).toEqual([
      'ID',
      'Submission Date',
      'First Name',
      'Last Name',
      'Email',
      'Phone Number',
      'Cash Advance Count',
      'Membership Months',
      'Screenshot URL',
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
    ])
    expect(rows).toHaveLength(NAMES.length)
    for (let i = 0; i < NAMES.length; i++) {
      const row = rows.find((cells) => cells[5] === formatPhone(BRIGIT_PHONES[i]!))
      expect(row?.slice(2, 5)).toEqual([
        neutralised(NAMES[i]!.firstName),
        neutralised(NAMES[i]!.lastName),
        neutralised(EMAILS[i]!),
      ])
      for (const cell of row!) expect(cell).not.toMatch(/^[=+\-@\t\r]/)
    }
    const cells = rows.flat()
    expect(cells).toContain(`'=HYPERLINK("http://evil","x")`)
    expect(cells).toContain("'+SUM(1,2)")
    expect(cells).toContain("'@cmd")
    expect(cells).toContain("'-1+1")
    expect(cells).toContain(`'=hyperlink("http://evil","x")@evil.example`)
  })

  it("neutralises the main page's app submissions CSV, and keeps the intakes' address and city as typed", async () => {
    const res = await staffGet('/api/staff/intake-submissions/export.csv').expect(200)
    const [header, ...rows] = csvRows(res.text)
    expect(header).toEqual([
      'Name',
      'Email',
      'Phone',
      'Apps Used',
      'Date',
      'Time Zone',
      'App',
      'Step 2 Status',
    ])
    for (let i = 0; i < NAMES.length; i++) {
      // one line per chosen app: makeIntakeData chooses two
      const ours = rows.filter((cells) => cells[2] === INTAKE_PHONES[i])
      expect(ours.length).toBeGreaterThan(0)
      for (const line of ours) {
        expect(line.slice(0, 2)).toEqual([neutralised(fullName(i)), neutralised(EMAILS[i]!)])
        for (const cell of line) expect(cell).not.toMatch(/^[=+\-@\t\r]/)
      }
    }
    expect(rows.map((cells) => cells[0])).toContain(`'=HYPERLINK("http://evil","x") +SUM(1,2)`)

    // the address and city are shown on no page and in no export; they are kept exactly as typed
    const stored = await ctx.db
      .selectFrom('form_submissions')
      .select(['first_name', 'last_name', 'address', 'city'])
      .where('phone', 'in', INTAKE_PHONES)
      .orderBy('phone')
      .execute()
    expect(stored).toEqual(
      NAMES.map((name, i) => ({
        first_name: name.firstName,
        last_name: name.lastName,
        address: addressOf(i),
        city: cityOf(i),
      })),
    )
  })
})
