import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { isPostgresDb } from '../../../server/db/dialect.ts'
import { setLegalHold } from '../../../server/evidence/legal-hold.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { purgeExpired } from '../../../server/ops/purge-expired.ts'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { signedAt, yearsAgo } from '../support/signed-at.ts'

const LONG_AGO = '2001-01-01T00:00:00.000Z'

for (const dialect of DIALECTS) {
  describe(`${dialect}: purge-expired decides by the seal and the ledger's holds`, () => {
    let ctx: TestContext
    beforeAll(async () => {
      ctx = await createTestContext(dialect)
    })
    afterAll(async () => {
      await ctx?.close()
    })
    beforeEach(async () => {
      await clearClaims(ctx)
    })

    async function fileClaimSigned(phone: string, when = new Date().toISOString()): Promise<number> {
      const screenshot = makePng({ width: 40, height: 20 })
      return (
        await signedAt(when, () =>
          fileClaim(ctx, { app: 'brigit', fields: { phoneNumber: phone }, screenshot }),
        )
      ).id
    }

    async function fileIntake(phone: string, when = new Date().toISOString()): Promise<number> {
      const res = await signedAt(when, () =>
        request(ctx.app)
          .post('/api/intake')
          .send(makeIntakeData({ email: `i${phone}@example.com`, phone })),
      )
      expect(res.status).toBe(201)
      return Number(res.body.id)
    }

    function purge() {
      return purgeExpired({
        db: ctx.db,
        storage: ctx.storage,
        evidenceKey: ctx.evidenceKey,
        retentionYears: FIRM_SETTINGS.retentionYears,
        dryRun: false,
      })
    }

    function hold(id: number, isHeld: boolean, reason: string) {
      return setLegalHold({
        db: ctx.db,
        evidenceKey: ctx.evidenceKey,
        kind: 'claim',
        id,
        isHeld,
        reason,
        actor: 'test',
      })
    }

    async function claimIds(): Promise<number[]> {
      return (await ctx.db.selectFrom('claims').select('id').orderBy('id').execute()).map(({ id }) =>
        Number(id),
      )
    }

    async function ledgerOf(id: number) {
      const entries = await ctx.db
        .selectFrom('evidence_ledger')
        .select(['kind', 'detail'])
        .where('subject', '=', `claim:${id}`)
        .orderBy('seq')
        .execute()
      return entries.map(({ kind, detail }) => [kind, JSON.parse(detail) as Record<string, string>])
    }

    /** What the tables' owner can do: the signed records' guard against updates goes for a moment. */
    async function withoutUpdateGuard(change: () => Promise<unknown>) {
      if (isPostgresDb(ctx.db)) {
        await sql`ALTER TABLE agreement_records DISABLE TRIGGER USER`.execute(ctx.db)
        await change()
        await sql`ALTER TABLE agreement_records ENABLE TRIGGER USER`.execute(ctx.db)
        return
      }
      await sql`DROP TRIGGER agreement_records_immutable`.execute(ctx.db)
      await change()
      await sql`
        CREATE TRIGGER agreement_records_immutable BEFORE UPDATE ON agreement_records
        BEGIN
          SELECT RAISE(ABORT, 'agreement records are immutable');
        END`.execute(ctx.db)
    }

    it('keeps a recent claim whose created_at was moved back and legal_hold cleared in SQL, and names it', async () => {
      const id = await fileClaimSigned('(555) 210-0001')
      await sql`UPDATE claims SET created_at = ${LONG_AGO}, legal_hold = 0 WHERE id = ${id}`.execute(ctx.db)

      const result = await purge()

      expect(await claimIds()).toEqual([id])
      expect(result.deletedClaims).toBe(0)
      expect(result.problems).toEqual([
        expect.stringMatching(
          new RegExp(
            `^claim ${id}: created_at 2001-01-01\\S* is not the sealed signing time \\S+ \\(the row was changed\\); kept$`,
          ),
        ),
      ])
    })

    it('keeps a claim whose signing time was moved back with the guards dropped, naming the seal mismatch', async () => {
      const id = await fileClaimSigned('(555) 210-0002')
      await withoutUpdateGuard(() =>
        sql`UPDATE agreement_records SET signed_at = ${LONG_AGO} WHERE claim_id = ${id}`.execute(ctx.db),
      )
      await sql`UPDATE claims SET created_at = ${LONG_AGO} WHERE id = ${id}`.execute(ctx.db)

      const result = await purge()

      expect(await claimIds()).toEqual([id])
      expect(result.problems).toEqual([
        `claim ${id}: sealed record differs (the claim or its signed record was changed); kept`,
      ])
    })

    it('keeps an expired claim on hold in the ledger when its legal_hold column is set to 0 by hand', async () => {
      const id = await fileClaimSigned('(555) 210-0003', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      await hold(id, true, 'litigation hold, case 2026-CV-114')
      await sql`UPDATE claims SET legal_hold = 0 WHERE id = ${id}`.execute(ctx.db)

      const result = await purge()

      expect(await claimIds()).toEqual([id])
      expect(result.problems).toEqual([
        `claim ${id}: on legal hold in the ledger, but its legal_hold column says 0 (changed in the database); kept`,
      ])
      expect(
        (await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey })).problems,
      ).toEqual([`claim ${id}: on legal hold in the ledger, but its legal_hold column says 0`])
    })

    it('lifts a hold by a ledger entry, after which purge removes the claim with a purge entry and the chain verifies', async () => {
      const id = await fileClaimSigned('(555) 210-0004', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      await hold(id, true, 'litigation hold')
      expect(await purge()).toMatchObject({ deletedClaims: 0, problems: [] })
      expect(await claimIds()).toEqual([id])

      await hold(id, false, 'case settled')
      const column = await ctx.db
        .selectFrom('claims')
        .select('legal_hold')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      expect(Number(column.legal_hold)).toBe(0)
      const before = await ctx.db
        .selectFrom('evidence_ledger')
        .select('seq')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow()

      expect(await purge()).toMatchObject({ deletedClaims: 1, removedFiles: 1, problems: [] })

      expect(await claimIds()).toEqual([])
      expect(await ledgerOf(id)).toEqual([
        ['claim', {}],
        ['legal_hold_set', { reason: 'litigation hold', by: 'test' }],
        ['legal_hold_lifted', { reason: 'case settled', by: 'test' }],
        ['purge', expect.objectContaining({ reason: 'retention period over' })],
      ])
      // purge appends: the chain only grows
      const after = await ctx.db
        .selectFrom('evidence_ledger')
        .select('seq')
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow()
      expect(Number(after.seq)).toBe(Number(before.seq) + 1)
      expect(
        await verifyEvidence({ db: ctx.db, storage: ctx.storage, evidenceKey: ctx.evidenceKey }),
      ).toMatchObject({
        problems: [],
      })
    })

    it('deletes an intake signed past retention and keeps one whose created_at was moved back, naming it', async () => {
      const old = await fileIntake('8085550121', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      const moved = await fileIntake('8085550122')
      await sql`UPDATE form_submissions SET created_at = ${LONG_AGO} WHERE id = ${moved}`.execute(ctx.db)

      const result = await purge()

      expect(result.candidates.map(({ kind, id }) => [kind, id])).toEqual([['intake', old]])
      expect(result.problems).toEqual([`intake ${moved}: sealed record differs (it was changed); kept`])
      const left = await ctx.db.selectFrom('form_submissions').select('id').execute()
      expect(left.map(({ id }) => Number(id))).toEqual([moved])
    })

    it('keeps an expired claim and its screenshot when the file no longer matches the sealed hash, naming it', async () => {
      const replaced = await fileClaimSigned('(555) 210-0011', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      const unchanged = await fileClaimSigned('(555) 210-0012', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      const keyOf = async (id: number) =>
        (
          await ctx.db
            .selectFrom('claims')
            .select('screenshot_key')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).screenshot_key
      const replacedKey = await keyOf(replaced)
      const unchangedKey = await keyOf(unchanged)
      const otherBytes = makePng({ width: 41, height: 20 })
      fs.writeFileSync(path.join(ctx.dataDir, 'screenshots', replacedKey), otherBytes)

      const result = await purge()

      expect(result).toMatchObject({ deletedClaims: 1, removedFiles: 1, keptScreenshots: 1 })
      expect(result.candidates.map(({ id }) => id)).toEqual([unchanged])
      // an intake an earlier test left changed is named too; only the claims matter here
      expect(result.problems.filter((line) => line.startsWith('claim '))).toEqual([
        `claim ${replaced}: screenshot ${replacedKey} does not match its sealed hash; kept with its claim`,
      ])
      expect(await claimIds()).toEqual([replaced])
      expect(listScreenshotFiles(ctx.dataDir)).toEqual([replacedKey])
      expect(fs.readFileSync(path.join(ctx.dataDir, 'screenshots', replacedKey))).toEqual(otherBytes)
      expect(listScreenshotFiles(ctx.dataDir)).not.toContain(unchangedKey)
    })
  })
}
