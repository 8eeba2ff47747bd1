import { CompiledQuery, sql, type Insertable } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StaffPage, StaffClaimRow } from '../../../src/api/staff.ts'
import type { ClaimsTable } from '../../../server/db/database.ts'
import { exactClaimIdsQuery, identifierOf } from '../../../server/dashboard/exact-claim-lookup.ts'
import { createTestContext, DIALECTS, insertClaim, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'

const SITE = 'identifiers.test'

for (const dialect of DIALECTS) {
  describe(`${dialect}: searching claims by their id, intake reference and case number`, () => {
    let ctx: TestContext
    let admin: string
    const ids: Record<string, number> = {}
    let seq = 0

    async function insertClaimRow(overrides: Partial<Insertable<ClaimsTable>> = {}): Promise<number> {
      seq += 1
      const { id } = await insertClaim(ctx.db, {
        app: 'brigit',
        created_at: new Date(Date.UTC(2026, 10, 10, 12) + seq * 60_000).toISOString(),
        first_name: 'Ida',
        last_name: `Entifier${seq}`,
        email: `ida${seq}@mail.test`,
        phone_number: `(212) 555-${String(seq).padStart(4, '0')}`,
        cash_advance_count: 2,
        membership_months: 4,
        screenshot_key: 'brigit-screenshots/missing.png',
        screenshot_type: 'image/png',
        ...overrides,
      })
      return id
    }
    const search = async (q: string) => {
      const res = await request(ctx.app)
        .get('/api/staff/apps/brigit/submissions')
        .query({ q })
        .set('Cookie', admin)
        .expect(200)
      return (res.body as StaffPage<StaffClaimRow>).data.map((claim) => claim.id)
    }

    beforeAll(async () => {
      ctx = await createTestContext(dialect)
      admin = await loginStaff(ctx.app, { site: SITE })
      ids.plain = await insertClaimRow()
      ids.firstOfIntake = await insertClaimRow({ intake_id: 42 })
      ids.secondOfIntake = await insertClaimRow({ intake_id: 42 })
      ids.filed = await insertClaimRow()
      ids.otherApp = await insertClaimRow({ app: 'cleo', intake_id: 43 })
      // a filing gives the case number; no claim arrives with one
      for (const [id, caseNumber] of [
        [ids.filed, '01-26-0001-0007'],
        [ids.otherApp, '01-26-0001-0008'],
      ] as const) {
        await ctx.db.updateTable('claims').set({ case_number: caseNumber }).where('id', '=', id).execute()
      }
      ids.phone = await insertClaimRow({ phone_number: '(646) 777-1234' })
    })
    afterAll(async () => {
      await ctx.close()
    })

    it("finds a claim by its id, with or without a '#'", async () => {
      expect(await search(String(ids.plain))).toEqual([ids.plain])
      expect(await search(`#${ids.filed}`)).toEqual([ids.filed])
    })

    it("finds every claim of the claimant's intake by its reference, in any case and zero padding", async () => {
      const both = [ids.secondOfIntake, ids.firstOfIntake]
      expect(await search('IN-000042')).toEqual(both)
      expect(await search('in-42')).toEqual(both)
    })

    it('finds a claim by its full case number', async () => {
      expect(await search('01-26-0001-0007')).toEqual([ids.filed])
    })

    it("never finds another app's claim by its identifiers", async () => {
      expect(await search('IN-000043')).toEqual([])
      expect(await search('01-26-0001-0008')).toEqual([])
    })

    it('searches a number that is no claim id as a phone number', async () => {
      expect(await search('7771234')).toEqual([ids.phone])
    })

    it('reads each lookup by an index, never by scanning the claims table', async () => {
      const lookups = [{ id: 7 }, { intakeId: 42 }, { caseNumber: '01-26-0001-0007' }]
      for (const lookup of lookups) {
        const compiled = exactClaimIdsQuery(ctx.db, { app: 'brigit', ...lookup }).compile()
        const plan =
          dialect === 'sqlite'
            ? await explainSqlite(compiled.sql, compiled.parameters)
            : await explainPostgres(compiled.sql, compiled.parameters)
        expect(plan, JSON.stringify(lookup)).toMatch(/index|primary key|integer primary key|using/i)
        expect(plan, JSON.stringify(lookup)).not.toMatch(
          dialect === 'sqlite' ? /SCAN claims(?! USING)/ : /Seq Scan on claims/,
        )
      }
    })

    async function explainSqlite(text: string, parameters: readonly unknown[]): Promise<string> {
      const { rows } = await ctx.db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, [...parameters]),
      )
      return rows.map((row) => row.detail).join('\n')
    }

    async function explainPostgres(text: string, parameters: readonly unknown[]): Promise<string> {
      // a table of six rows is cheaper to scan: the check asks whether an index serves the lookup at all
      return ctx.db.connection().execute(async (db) => {
        await sql`SET enable_seqscan = off`.execute(db)
        try {
          const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${text}`, [...parameters]),
          )
          return rows.map((row) => row['QUERY PLAN']).join('\n')
        } finally {
          await sql`SET enable_seqscan = on`.execute(db)
        }
      })
    }
  })
}

describe('identifierOf', () => {
  it('reads a claim id, an intake reference and a case number, and nothing from a name or e-mail', () => {
    expect(identifierOf('#42')).toEqual({ id: 42 })
    expect(identifierOf('IN-000042')).toEqual({ intakeId: 42 })
    expect(identifierOf('01-26-0001-0001')).toEqual({ caseNumber: '01-26-0001-0001' })
    expect(identifierOf('ida@mail.test')).toBeUndefined()
    expect(identifierOf('Mary-Jane')).toBeUndefined()
  })
})
