import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import request from 'supertest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { backupDataDir, restoreBackup } from '../../../server/ops/backup.ts'
import { setLegalHold } from '../../../server/evidence/legal-hold.ts'
import { purgeExpired } from '../../../server/ops/purge-expired.ts'
import {
  clearClaims,
  countClaims,
  createTestContext,
  DIALECTS,
  listScreenshotFiles,
  makeClaimData,
  makePng,
  type TestContext,
} from '../support/helpers.ts'
import { signedAt, yearsAgo } from '../support/signed-at.ts'

const SCREENSHOT = makePng({ width: 40, height: 20 })

function postClaim(ctx: TestContext, phoneNumber: string) {
  return request(ctx.app)
    .post('/api/forms/brigit/submissions')
    .field('data', JSON.stringify(makeClaimData({ phoneNumber })))
    .attach('screenshot', SCREENSHOT, 'statement.png')
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: npm run purge-expired`, () => {
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

    /** A claim through the real endpoint, signed at `when` (and put on hold through the ledger). */
    async function claimFrom(phone: string, when: string, isHeld = false): Promise<number> {
      const res = await signedAt(when, () => postClaim(ctx, phone))
      expect(res.status).toBe(201)
      const id = res.body.id as number
      if (isHeld) {
        await setLegalHold({
          db: ctx.db,
          evidenceKey: ctx.evidenceKey,
          kind: 'claim',
          id,
          isHeld: true,
          reason: 'litigation hold',
          actor: 'test',
        })
      }
      return id
    }

    it('lists what it would delete on a dry run and deletes nothing', async () => {
      const old = await claimFrom('(555) 200-0001', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      await claimFrom('(555) 200-0002', yearsAgo(1))
      const result = await purgeExpired({
        db: ctx.db,
        storage: ctx.storage,
        evidenceKey: ctx.evidenceKey,
        retentionYears: FIRM_SETTINGS.retentionYears,
        dryRun: true,
      })
      expect(result.candidates.map((item) => [item.kind, item.id])).toEqual([['claim', old]])
      expect(await countClaims(ctx.db)).toBe(2)
      expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(2)
    })

    it('deletes expired claims with their signed records and screenshots, keeping recent ones and legal holds', async () => {
      const expired = await claimFrom('(555) 200-0003', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
      const held = await claimFrom('(555) 200-0004', yearsAgo(FIRM_SETTINGS.retentionYears + 2), true)
      const recent = await claimFrom('(555) 200-0005', yearsAgo(FIRM_SETTINGS.retentionYears - 1))
      const expiredKey = (
        await ctx.db
          .selectFrom('claims')
          .select('screenshot_key')
          .where('id', '=', expired)
          .executeTakeFirstOrThrow()
      ).screenshot_key

      const result = await purgeExpired({
        db: ctx.db,
        storage: ctx.storage,
        evidenceKey: ctx.evidenceKey,
        retentionYears: FIRM_SETTINGS.retentionYears,
        dryRun: false,
      })

      expect(result.deletedClaims).toBe(1)
      const left = await ctx.db.selectFrom('claims').select('id').orderBy('id').execute()
      expect(left.map((row) => Number(row.id))).toEqual([held, recent])
      const records = await ctx.db
        .selectFrom('agreement_records')
        .select('claim_id')
        .orderBy('claim_id')
        .execute()
      expect(records.map((row) => Number(row.claim_id))).toEqual([held, recent])
      expect(listScreenshotFiles(ctx.dataDir)).not.toContain(expiredKey)
      expect(listScreenshotFiles(ctx.dataDir)).toHaveLength(2)
    })
  })
}

describe('sqlite: npm run backup', () => {
  let ctx: TestContext
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-backup-'))
  beforeAll(async () => {
    ctx = await createTestContext('sqlite')
  })
  afterAll(async () => {
    await ctx?.close()
    fs.rmSync(scratch, { recursive: true, force: true })
  })

  it('takes a backup while claims keep arriving, and the restore has every row with its screenshot', async () => {
    for (let i = 0; i < 10; i++)
      expect((await postClaim(ctx, `(555) 200-00${String(i).padStart(2, '0')}`)).status).toBe(201)
    const before = await countClaims(ctx.db)
    // claims keep coming in while the backup runs
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      postClaim(ctx, `(555) 300-00${String(i).padStart(2, '0')}`),
    )
    const file = path.join(scratch, 'claims.backup')
    const counts = backupDataDir({ dataDir: ctx.dataDir, file })
    for (const res of await Promise.all(inFlight)) expect(res.status).toBe(201)

    expect(counts.claims).toBeGreaterThanOrEqual(before)
    const restoredDir = path.join(scratch, 'restored')
    const restored = restoreBackup({ file, dataDir: restoredDir })
    expect(restored.claims).toBe(counts.claims)

    const db = new SQLite(path.join(restoredDir, 'claims.db'), { readonly: true })
    const keys = db.prepare('SELECT screenshot_key FROM claims').all() as { screenshot_key: string }[]
    const records = (db.prepare('SELECT count(*) AS n FROM agreement_records').get() as { n: number }).n
    db.close()
    expect(records).toBe(counts.claims)
    for (const { screenshot_key } of keys) {
      expect(fs.readFileSync(path.join(restoredDir, 'screenshots', screenshot_key))).toEqual(SCREENSHOT)
    }
  })

  it('refuses to restore over an existing database', () => {
    expect(() => restoreBackup({ file: path.join(scratch, 'claims.backup'), dataDir: ctx.dataDir })).toThrow(
      /exists: restore into an empty DATA_DIR/,
    )
  })
})
