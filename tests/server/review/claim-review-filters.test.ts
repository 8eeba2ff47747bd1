import type { Insertable } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StaffPage, StaffStats, StaffClaimRow } from '../../../src/api/staff.ts'
import type { ClaimsTable } from '../../../server/db/database.ts'
import { subjectOf } from '../../../server/evidence/ledger.ts'
import { createAccount } from '../../../server/staff/staff-accounts.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'filters.test'
const SAME_SITE = { Host: SITE, Origin: `http://${SITE}` }
const ZONE = 'America/Los_Angeles'
const ANA = { email: 'ana@firm.test', password: 'ana reviews brigit 1' }
const STATUSES =
  'received, in_review, approved, deficient, rejected, cured, not_cured, filed, awarded, withdrawn'
const REASONS =
  'screenshot_unreadable, screenshot_wrong_app, name_differs, duplicate, under_18, signature_unclear, details_missing, account_unverified, other'

/** A time as the firm's wall clock reads it: 'YYYY-MM-DD HH:MM:SS' (Sweden's format). */
function wallClock(ms: number): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(ms)
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: review filters, status counts and assignees`, () => {
    let ctx: TestContext
    let admin: string
    let adminId: number
    let anaId: number
    let cleoOnlyId: number
    let disabledId: number
    let invitedId: number
    let ana: string
    const ids: Record<string, number> = {}
    let seq = 0

    async function insertClaimRow(overrides: Partial<Insertable<ClaimsTable>> = {}): Promise<number> {
      seq += 1
      const { id } = await insertClaim(ctx.db, {
        app: 'brigit',
        created_at: new Date(Date.UTC(2026, 10, 10, 12) + seq * 60_000).toISOString(),
        first_name: 'Fil',
        last_name: `Terson${seq}`,
        email: `fil${seq}@mail.test`,
        phone_number: `(212) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 2,
        membership_months: 4,
        screenshot_key: 'brigit-screenshots/missing.png',
        screenshot_type: 'image/png',
        ...overrides,
      })
      return id
    }

    const move = (claimId: number, body: Record<string, unknown>) =>
      request(ctx.app)
        .post(`/api/staff/claims/${claimId}/moves`)
        .set(SAME_SITE)
        .set('Cookie', admin)
        .send(body)
        .expect(200)
    const assign = (claimId: number | string, body: unknown, cookie = admin) =>
      request(ctx.app)
        .put(`/api/staff/claims/${claimId}/assignee`)
        .set(SAME_SITE)
        .set('Cookie', cookie)
        .send(body as object)
    const list = async (query: Record<string, string>, cookie = admin) => {
      const res = await request(ctx.app)
        .get('/api/staff/apps/brigit/submissions')
        .query(query)
        .set('Cookie', cookie)
        .expect(200)
      const page = res.body as StaffPage<StaffClaimRow>
      return { ids: page.data.map((claim) => claim.id), count: page.count, data: page.data }
    }
    const csv = async (query: Record<string, string>) => {
      const res = await request(ctx.app)
        .get('/api/staff/apps/brigit/export.csv')
        .query(query)
        .set('Cookie', admin)
        .expect(200)
      const [header, ...records] = res.text.slice(1).trim().split('\r\n')
      return { header: header!.split(','), records: records.map((line) => line.split(',')) }
    }
    const stats = async () =>
      (await request(ctx.app).get('/api/staff/apps/brigit/stats').set('Cookie', admin).expect(200))
        .body as StaffStats
    const statusCounts = async () =>
      Object.fromEntries((await stats()).statuses.map(({ status, count }) => [status, count]))

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      adminId = Number(
        (
          await ctx.db
            .selectFrom('staff_accounts')
            .select('id')
            .where('role', '=', 'admin')
            .executeTakeFirstOrThrow()
        ).id,
      )
      anaId = await createAccount(ctx.db, {
        ...ANA,
        name: 'Ana Reviewer',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
      })
      cleoOnlyId = await createAccount(ctx.db, {
        email: 'cleo.only@firm.test',
        password: 'cleo only password 1',
        name: 'Cleo Only',
        role: 'staff',
        apps: [{ app: 'cleo', canExport: false }],
      })
      disabledId = await createAccount(ctx.db, {
        email: 'gone@firm.test',
        password: 'gone password 1',
        name: 'Gone',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
      })
      await ctx.db
        .updateTable('staff_accounts')
        .set({ disabled_at: Date.now() })
        .where('id', '=', disabledId)
        .execute()
      invitedId = await createAccount(ctx.db, {
        email: 'invited@firm.test',
        name: 'Invited',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
      })
      ana = await loginStaff(ctx.app, { site: SITE, ...ANA })

      // received, late on 19 November in Los Angeles (08:00 UTC on the 20th is midnight there)
      ids.received = await insertClaimRow({ created_at: '2026-11-20T07:59:59.000Z', last_name: 'Lateday' })
      // in review, assigned to ana, in Spanish, the first second of 20 November in Los Angeles
      ids.inReview = await insertClaimRow({ created_at: '2026-11-20T08:00:00.000Z', locale: 'es' })
      await move(ids.inReview, { to: 'in_review', version: 0 })
      // deficient for an unreadable screenshot, assigned to the admin
      ids.deficient = await insertClaimRow({ created_at: '2026-11-21T12:00:00.000Z', last_name: 'Lateday' })
      await move(ids.deficient, { to: 'in_review', version: 0 })
      await move(ids.deficient, { to: 'deficient', reason: 'screenshot_unreadable', version: 1 })
      // another app's claim, in review: never in brigit's lists or counts
      ids.cleo = await insertClaimRow({ app: 'cleo' })
      await move(ids.cleo, { to: 'in_review', version: 0 })
    })
    afterAll(async () => {
      await ctx?.close()
    })

    it('assigns a claim to an account that can see its app, in one transaction with a sealed audit entry', async () => {
      const res = await assign(ids.inReview!, { accountId: anaId })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ assignee: { id: anaId, email: ANA.email } })
      await assign(ids.deficient!, { accountId: adminId }).expect(200)
      const audits = await ctx.db
        .selectFrom('audit_log')
        .select(['id', 'action', 'detail', 'actor', 'app', 'account_id'])
        .where('action', '=', 'claim_assigned')
        .orderBy('id')
        .execute()
      expect(audits.map(({ id: _id, ...rest }) => rest)).toEqual([
        {
          action: 'claim_assigned',
          detail: `claim ${ids.inReview}: assigned to ${ANA.email}`,
          actor: 'admin@firm.test',
          app: 'brigit',
          account_id: adminId,
        },
        {
          action: 'claim_assigned',
          detail: `claim ${ids.deficient}: assigned to admin@firm.test`,
          actor: 'admin@firm.test',
          app: 'brigit',
          account_id: adminId,
        },
      ])
      const sealed = await ctx.db
        .selectFrom('evidence_ledger')
        .select('subject')
        .where(
          'subject',
          'in',
          audits.map((entry) => subjectOf('audit', Number(entry.id))),
        )
        .execute()
      expect(sealed).toHaveLength(2)
      const opened = await request(ctx.app)
        .get(`/api/staff/claims/${ids.inReview}`)
        .set('Cookie', admin)
        .expect(200)
      expect(opened.body).toMatchObject({
        reviewStatus: 'in_review',
        assignee: { id: anaId, email: ANA.email },
      })
    })

    it('unassigns with null, and lets an account assign a claim to itself', async () => {
      const claimId = await insertClaimRow()
      await assign(claimId, { accountId: anaId }, ana).expect(200)
      const res = await assign(claimId, { accountId: null }, ana)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ assignee: null })
      const last = await ctx.db
        .selectFrom('audit_log')
        .select(['detail', 'actor'])
        .where('action', '=', 'claim_assigned')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
      expect(last).toEqual({ detail: `claim ${claimId}: unassigned`, actor: ANA.email })
      const row = await ctx.db
        .selectFrom('claims')
        .select('assignee_id')
        .where('id', '=', claimId)
        .executeTakeFirstOrThrow()
      expect(row.assignee_id).toBeNull()
    })

    it('lists the accounts a claim of the app can be assigned to: enabled, set up, and able to see it', async () => {
      const res = await request(ctx.app)
        .get('/api/staff/apps/brigit/assignees')
        .set('Cookie', ana)
        .expect(200)
      expect(res.body).toEqual([
        { id: adminId, email: 'admin@firm.test' },
        { id: anaId, email: ANA.email },
      ])
      await request(ctx.app).get('/api/staff/apps/cleo/assignees').set('Cookie', ana).expect(403)
      await request(ctx.app).get('/api/staff/apps/nope/assignees').set('Cookie', admin).expect(404)
    })

    it.each([
      [
        'text for an id',
        () => ({ accountId: 'ana' }),
        '"accountId" must be the id of a staff account (a whole number), or null to unassign',
      ],
      [
        'no accountId',
        () => ({}),
        '"accountId" must be the id of a staff account (a whole number), or null to unassign',
      ],
      [
        'a fraction',
        () => ({ accountId: 1.5 }),
        '"accountId" must be the id of a staff account (a whole number), or null to unassign',
      ],
      [
        'an account that does not exist',
        () => ({ accountId: 999_999 }),
        'no staff account 999999 to assign the claim to',
      ],
      [
        'a disabled account',
        () => ({ accountId: disabledId }),
        'the chosen account is disabled: assign the claim to an active account',
      ],
      [
        'an account that never accepted its invitation',
        () => ({ accountId: invitedId }),
        'the chosen account has not accepted its invitation yet: assign the claim to it once it has',
      ],
      [
        "an account that cannot see the claim's app",
        () => ({ accountId: cleoOnlyId }),
        "the chosen account cannot see brigit's claims: an admin grants it the app first, or choose another account",
      ],
    ])(
      'refuses to assign %s with 400 naming the problem, and writes nothing',
      async (_label, body, message) => {
        const claimId = await insertClaimRow()
        // the assignments' entries: the deficiency notices of earlier moves are written meanwhile
        const assignments = () =>
          ctx.db
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('action', '=', 'claim_assigned')
            .executeTakeFirstOrThrow()
        const before = await assignments()
        const res = await assign(claimId, body())
        expect(res.status).toBe(400)
        expect(res.body.error.message).toBe(message)
        const after = await assignments()
        expect(Number(after.n)).toBe(Number(before.n))
        const row = await ctx.db
          .selectFrom('claims')
          .select('assignee_id')
          .where('id', '=', claimId)
          .executeTakeFirstOrThrow()
        expect(row.assignee_id).toBeNull()
      },
    )

    it.each([
      ['a disabled account', () => disabledId, 'gone@firm.test', 'Gone'],
      ['an account that never accepted its invitation', () => invitedId, 'invited@firm.test', 'Invited'],
      ["an account that cannot see the claim's app", () => cleoOnlyId, 'cleo.only@firm.test', 'Cleo Only'],
    ])('refuses to assign %s without naming that account', async (_label, accountId, email, name) => {
      const claimId = await insertClaimRow()
      // a reviewer who may assign the claim learns only why the account was refused
      const res = await assign(claimId, { accountId: accountId() }, ana)
      expect(res.status).toBe(400)
      const body = JSON.stringify(res.body)
      expect(body).not.toContain(email)
      expect(body).not.toContain(name)
    })

    it('refuses a claim of an app the caller may not see with 403, one that does not exist with 404', async () => {
      const res = await assign(ids.cleo!, { accountId: anaId }, ana)
      expect(res.status).toBe(403)
      expect(res.body.error.message).toBe('your account has no access to this app')
      const missing = await assign(999_999, { accountId: anaId })
      expect(missing.status).toBe(404)
      expect(missing.body.error.message).toBe('no claim "999999"')
      await request(ctx.app)
        .put(`/api/staff/claims/${ids.inReview}/assignee`)
        .set(SAME_SITE)
        .send({ accountId: null })
        .expect(401)
    })

    it('filters the list by status, reason, assignee and language, each count matching its rows', async () => {
      const seeded = [ids.received, ids.inReview, ids.deficient]
      const only = async (query: Record<string, string>, cookie = admin) => {
        const found = await list(query, cookie)
        const mine = found.ids.filter((id) => seeded.includes(id))
        return { ids: mine, count: found.count, all: found.ids }
      }
      expect((await only({ status: 'in_review' })).ids).toEqual([ids.inReview])
      expect(await list({ status: 'in_review' })).toMatchObject({ ids: [ids.inReview], count: 1 })
      expect(await list({ status: 'deficient' })).toMatchObject({ ids: [ids.deficient], count: 1 })
      expect(await list({ status: 'approved' })).toMatchObject({ ids: [], count: 0 })
      expect(await list({ reason: 'screenshot_unreadable' })).toMatchObject({
        ids: [ids.deficient],
        count: 1,
      })
      expect(await list({ assignee: 'me' }, ana)).toMatchObject({ ids: [ids.inReview], count: 1 })
      expect(await list({ assignee: 'me' })).toMatchObject({ ids: [ids.deficient], count: 1 })
      expect(await list({ assignee: String(anaId) })).toMatchObject({ ids: [ids.inReview], count: 1 })
      expect((await list({ assignee: 'none' })).ids).toContain(ids.received)
      expect((await list({ assignee: 'none' })).ids).not.toContain(ids.inReview)
      expect(await list({ language: 'es' })).toMatchObject({ ids: [ids.inReview], count: 1 })
      const received = await list({ status: 'received' })
      expect(received.ids).toContain(ids.received)
      expect(received.ids).not.toContain(ids.inReview)
      expect(received.count).toBe(received.ids.length)
      // several filters together, and a filter beside a search term (three letters and more: the index)
      expect(await list({ status: 'deficient', assignee: 'me' })).toMatchObject({
        ids: [ids.deficient],
        count: 1,
      })
      expect(await list({ status: 'deficient', q: 'Lateday' })).toMatchObject({
        ids: [ids.deficient],
        count: 1,
      })
      expect(await list({ status: 'received', q: 'Lateday' })).toMatchObject({
        ids: [ids.received],
        count: 1,
      })
      expect(await list({ status: 'received', q: 'La' })).toMatchObject({ ids: [ids.received], count: 1 })
      expect(await list({ status: 'received', q: 'Lateday', flagged: '1' })).toMatchObject({
        ids: [],
        count: 0,
      })
      const listed = (await list({ status: 'deficient' })).data[0]!
      expect(listed).toMatchObject({
        reviewStatus: 'deficient',
        reviewReason: 'screenshot_unreadable',
        assignee: { id: adminId, email: 'admin@firm.test' },
      })
      expect(Date.parse(listed.reviewMovedAt!)).toBeGreaterThan(0)
    })

    it("filters by the day claims were signed in the firm's time zone, both days included", async () => {
      expect(await list({ signedTo: '2026-11-19', signedFrom: '2026-11-19' })).toMatchObject({
        ids: [ids.received],
        count: 1,
      })
      expect(await list({ signedFrom: '2026-11-20', signedTo: '2026-11-21' })).toMatchObject({
        ids: [ids.deficient, ids.inReview],
        count: 2,
      })
      expect(await list({ signedFrom: '2026-11-21' })).toMatchObject({ ids: [ids.deficient], count: 1 })
      expect((await list({ signedTo: '2026-11-19' })).ids).not.toContain(ids.inReview)
    })

    it('counts the claims per status with their labels, and keeps the counts as claims move and go', async () => {
      const before = await stats()
      expect(before.statuses.map(({ status, label }) => [status, label])).toEqual([
        ['received', 'Received'],
        ['in_review', 'In review'],
        ['approved', 'Approved'],
        ['deficient', 'Deficient'],
        ['rejected', 'Rejected'],
        ['cured', 'Cured'],
        ['not_cured', 'Not cured'],
        ['filed', 'Filed'],
        ['awarded', 'Awarded'],
        ['withdrawn', 'Withdrawn'],
      ])
      expect(before.reasons[0]).toEqual({ name: 'screenshot_unreadable', label: 'Screenshot unreadable' })
      const counts = await statusCounts()
      expect(counts).toMatchObject({ in_review: 1, deficient: 1, approved: 0 })
      expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(before.total)
      // the counts a count(*) gives
      const counted = await ctx.db
        .selectFrom('claims')
        .select(['review_status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('app', '=', 'brigit')
        .groupBy('review_status')
        .execute()
      for (const { review_status, n } of counted) expect(counts[review_status]).toBe(Number(n))

      const claimId = await insertClaimRow()
      await move(claimId, { to: 'in_review', version: 0 })
      await move(claimId, { to: 'approved', version: 1 })
      expect(await statusCounts()).toMatchObject({
        received: counts.received,
        in_review: 1,
        approved: 1,
      })
      expect(await list({ status: 'approved' })).toMatchObject({ ids: [claimId], count: 1 })
      await ctx.db.deleteFrom('claims').where('id', '=', claimId).execute()
      expect(await statusCounts()).toEqual(counts)
    })

    it('exports the same claims the filters list, with status, reason, status date and assignee last', async () => {
      const { header, records } = await csv({ status: 'deficient' })
      expect(header.slice(0, 14)).toEqual([
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
      ])
      expect(header.slice(14)).toEqual([
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
      const moved = await ctx.db
        .selectFrom('claims')
        .select('review_moved_at')
        .where('id', '=', ids.deficient!)
        .executeTakeFirstOrThrow()
      expect(records).toEqual([
        [
          String(ids.deficient),
          expect.any(String),
          'Fil',
          'Lateday',
          expect.stringContaining('@mail.test'),
          expect.any(String),
          '2',
          '4',
          expect.stringContaining(`/api/staff/claims/${ids.deficient}/screenshot`),
          ZONE,
          '',
          'en',
          'No',
          '',
          'deficient',
          'screenshot_unreadable',
          wallClock(Number(moved.review_moved_at)),
          'admin@firm.test',
          '',
          ...Array<string>(8).fill(''),
          // not scored
          '',
          '',
        ],
      ])
      const received = await csv({ status: 'received', signedFrom: '2026-11-19', signedTo: '2026-11-19' })
      expect(received.records.map((record) => record.slice(14, 19))).toEqual([['received', '', '', '', '']])
      expect((await csv({ assignee: String(anaId), q: 'fil' })).records.map(([id]) => Number(id))).toEqual([
        ids.inReview,
      ])
      const exports = await ctx.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'export')
        .orderBy('id', 'desc')
        .limit(3)
        .execute()
      expect(exports.map(({ detail }) => detail)).toEqual([
        `1 rows (search), assignee ${anaId}`,
        '1 rows, status received, signed from 2026-11-19, signed to 2026-11-19',
        '1 rows, status deficient',
      ])
    })

    it.each([
      ['an unknown status', { status: 'done' }, `unknown status "done": use one of ${STATUSES}`],
      ['an unknown reason', { reason: 'odd' }, `unknown reason "odd": use one of ${REASONS}`],
      [
        'an unknown assignee word',
        { assignee: 'you' },
        'unknown assignee "you": use me, none or the id of a staff account',
      ],
      [
        'an account id that does not exist',
        { assignee: '999999' },
        'unknown assignee "999999": use me, none or the id of a staff account',
      ],
      ['an unknown language', { language: 'fr' }, 'unknown language "fr": use one of en, es'],
      [
        'a date in another format',
        { signedFrom: '11/20/2026' },
        '"signedFrom" must be a date written YYYY-MM-DD, e.g. 2026-11-28 (got "11/20/2026")',
      ],
      [
        'a day that does not exist',
        { signedTo: '2026-02-30' },
        '"signedTo" must be a date written YYYY-MM-DD, e.g. 2026-11-28 (got "2026-02-30")',
      ],
      [
        'a first day after the last',
        { signedFrom: '2026-11-21', signedTo: '2026-11-20' },
        '"signedFrom" (2026-11-21) is after "signedTo" (2026-11-20): swap them',
      ],
      ['a status given twice', 'status=received&status=approved', '"status" must be given once'],
    ])(
      'refuses %s with 400 naming the problem, on the list, the export and its check',
      async (_label, query, message) => {
        for (const path of ['submissions', 'export.csv', 'export.csv?check=1']) {
          const res = await request(ctx.app)
            .get(`/api/staff/apps/brigit/${path}`)
            .query(query)
            .set('Cookie', admin)
          expect(res.status).toBe(400)
          expect(res.body.error.message).toBe(message)
        }
      },
    )

    it('lists newest or oldest first, searched, filtered or neither, and refuses another order', async () => {
      const times = ['2026-10-01T09:00:00.000Z', '2026-10-02T09:00:00.000Z', '2026-10-03T09:00:00.000Z']
      const orderly: number[] = []
      for (const created_at of times) orderly.push(await insertClaimRow({ created_at, last_name: 'Orderly' }))
      expect((await list({ q: 'Orderly' })).ids).toEqual([...orderly].reverse())
      expect((await list({ q: 'Orderly', order: 'oldest' })).ids).toEqual(orderly)
      expect((await list({ q: 'Orderly', status: 'received', order: 'oldest' })).ids).toEqual(orderly)

      for (const query of [{ order: 'oldest' }, { order: 'oldest', status: 'received' }] as Record<
        string,
        string
      >[]) {
        const { data } = await list(query)
        const dates = data.map((claim) => claim.createdAt)
        expect(dates.length).toBeGreaterThan(3)
        expect(dates).toEqual([...dates].sort())
      }
      const newest = (await list({})).data.map((claim) => claim.createdAt)
      expect(newest).toEqual([...newest].sort().reverse())

      const refused = await request(ctx.app)
        .get('/api/staff/apps/brigit/submissions?order=name')
        .set('Cookie', admin)
      expect(refused.status).toBe(400)
      expect(refused.body.error.message).toBe('"order" must be newest, oldest or score')
    })
  })
}
