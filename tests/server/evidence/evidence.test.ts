import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import request from 'supertest'
import { afterEach, describe, expect, it } from 'vitest'
import { isPostgresDb } from '../../../server/db/dialect.ts'
import { EVIDENCE_KEY_FILE } from '../../../server/evidence/evidence-key.ts'
import { openEvidenceKey } from '../../../server/evidence/open-evidence-key.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { purgeExpired } from '../../../server/ops/purge-expired.ts'
import { createTestContext, DIALECTS, makePng, type TestContext } from '../support/helpers.ts'
import { loginStaff } from '../support/staff-sign-in.ts'
import { fileClaim } from '../support/claims.ts'
import { makeIntakeData } from '../support/malformed-intakes.ts'
import { signedAt, yearsAgo } from '../support/signed-at.ts'

const SITE = 'evidence.test'

describe.each(DIALECTS)('%s: sealed records and the evidence ledger', (dialect) => {
  let ctx: TestContext | undefined
  afterEach(async () => {
    await ctx?.close()
    ctx = undefined
  })

  async function start(): Promise<TestContext> {
    ctx = await createTestContext(dialect)
    return ctx
  }

  async function fileClaimOf(
    context: TestContext,
    phone: string,
    screenshot = makePng({ width: 30, height: 20 }),
  ) {
    const fields = { phoneNumber: phone, email: `c${phone.replace(/\D/g, '')}@example.com` }
    const headers = { 'User-Agent': 'Mozilla/5.0 (evidence test)' }
    return (await fileClaim(context, { app: 'brigit', fields, headers, screenshot })).id
  }

  async function fileIntake(context: TestContext) {
    const res = await request(context.app)
      .post('/api/intake')
      .send(makeIntakeData({ email: 'ana.lopez@example.com', phone: '8085550111' }))
      .expect(201)
    return Number(res.body.id)
  }

  function verify(context: TestContext, options: { evidenceKey?: Buffer; claimId?: number } = {}) {
    return verifyEvidence({
      db: context.db,
      storage: context.storage,
      evidenceKey: options.evidenceKey ?? context.evidenceKey,
      claimId: options.claimId,
    })
  }

  /** What an attacker with the database's files or its owner's role does first: the guards go. */
  async function dropGuards(context: TestContext, table: 'agreement_records' | 'evidence_ledger') {
    if (isPostgresDb(context.db)) {
      await sql`ALTER TABLE ${sql.table(table)} DISABLE TRIGGER USER`.execute(context.db)
      return
    }
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${table}`.execute(context.db)
    for (const { name } of rows) await sql`DROP TRIGGER ${sql.id(name)}`.execute(context.db)
  }

  it('seals each claim, intake and staff action into one unbroken chain that verifies', async () => {
    const context = await start()
    const first = await fileClaimOf(context, '(555) 700-0001')
    const intake = await fileIntake(context)
    await loginStaff(context.app, { site: SITE })
    const second = await fileClaimOf(context, '(555) 700-0002')

    const entries = await context.db.selectFrom('evidence_ledger').selectAll().orderBy('seq').execute()
    expect(entries.map((entry) => [Number(entry.seq), entry.kind, entry.subject])).toEqual([
      [1, 'claim', `claim:${first}`],
      [2, 'intake', `intake:${intake}`],
      [3, 'audit', expect.stringMatching(/^audit:\d+$/)],
      [4, 'claim', `claim:${second}`],
    ])
    expect(entries[0]!.prev_hash).toBe('0'.repeat(64))
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.prev_hash).toBe(entries[i - 1]!.hash)

    const claim = await context.db
      .selectFrom('claims')
      .selectAll()
      .where('id', '=', first)
      .executeTakeFirstOrThrow()
    const file = fs.readFileSync(path.join(context.dataDir, 'screenshots', claim.screenshot_key))
    expect(claim.screenshot_sha256).toBe(crypto.createHash('sha256').update(file).digest('hex'))

    expect(await verify(context)).toEqual({
      ledgerEntries: 4,
      claims: 2,
      amendments: 0,
      intakes: 1,
      auditEntries: 1,
      fraudClearances: 0,
      trustEntries: 0,
      taxForms: 0,
      purged: 0,
      problems: [],
    })
  })

  it('refuses to change, remove or replace a signed record or a ledger entry', async () => {
    const context = await start()
    const id = await fileClaimOf(context, '(555) 700-0003')
    const refusals = [
      sql`UPDATE agreement_records SET html = '<p>forged</p>'`,
      sql`DELETE FROM agreement_records`,
      sql`DELETE FROM claims WHERE id = ${id}`,
      sql`UPDATE evidence_ledger SET seal = ${'0'.repeat(64)}`,
      sql`DELETE FROM evidence_ledger`,
    ]
    if (!isPostgresDb(context.db)) {
      refusals.push(
        sql`INSERT OR REPLACE INTO agreement_records SELECT * FROM agreement_records`,
        sql`INSERT OR REPLACE INTO evidence_ledger SELECT * FROM evidence_ledger`,
      )
    } else {
      refusals.push(sql`TRUNCATE evidence_ledger`, sql`TRUNCATE agreement_records CASCADE`)
    }
    for (const statement of refusals) await expect(statement.execute(context.db)).rejects.toThrow()
    expect(await verify(context)).toMatchObject({ claims: 1, problems: [] })
    const record = await context.db.selectFrom('agreement_records').select('html').executeTakeFirstOrThrow()
    expect(record.html).not.toBe('<p>forged</p>')
  })

  it('names a claim whose e-mail was edited in SQL', async () => {
    const context = await start()
    await fileClaimOf(context, '(555) 700-0004')
    const edited = await fileClaimOf(context, '(555) 700-0005')
    await sql`UPDATE claims SET email = 'someone.else@example.com' WHERE id = ${edited}`.execute(context.db)
    expect((await verify(context)).problems).toEqual([
      `claim ${edited}: sealed record differs (the claim or its signed record was changed)`,
    ])
  })

  it('names a claim whose agreement HTML was replaced with the guards dropped', async () => {
    const context = await start()
    const replaced = await fileClaimOf(context, '(555) 700-0006')
    await dropGuards(context, 'agreement_records')
    await sql`UPDATE agreement_records SET html = '<p>forged</p>' WHERE claim_id = ${replaced}`.execute(
      context.db,
    )
    expect((await verify(context)).problems).toEqual([
      `claim ${replaced}: sealed record differs (the claim or its signed record was changed)`,
    ])
  })

  it('names where the chain breaks when a ledger entry is deleted', async () => {
    const context = await start()
    await fileClaimOf(context, '(555) 700-0007')
    const removed = await fileClaimOf(context, '(555) 700-0008')
    await fileClaimOf(context, '(555) 700-0009')
    await dropGuards(context, 'evidence_ledger')
    await sql`DELETE FROM evidence_ledger WHERE seq = 2`.execute(context.db)
    expect((await verify(context)).problems).toEqual([
      'ledger entry 3: chain broken (entry 2 missing)',
      `claim ${removed}: no seal in the ledger`,
    ])
  })

  it('names both claims when their screenshots are swapped in the store', async () => {
    const context = await start()
    const a = await fileClaimOf(context, '(555) 700-0010', makePng({ width: 31, height: 20 }))
    const b = await fileClaimOf(context, '(555) 700-0011', makePng({ width: 32, height: 20 }))
    const rows = await context.db
      .selectFrom('claims')
      .select(['id', 'screenshot_key'])
      .orderBy('id')
      .execute()
    const [fileA, fileB] = rows.map((row) => path.join(context.dataDir, 'screenshots', row.screenshot_key))
    const bytesA = fs.readFileSync(fileA!)
    fs.writeFileSync(fileA!, fs.readFileSync(fileB!))
    fs.writeFileSync(fileB!, bytesA)
    expect((await verify(context)).problems.sort()).toEqual(
      [`claim ${a}: screenshot hash differs`, `claim ${b}: screenshot hash differs`].sort(),
    )
  })

  it('fails every HMAC under another key, from the first entry', async () => {
    const context = await start()
    await fileClaimOf(context, '(555) 700-0012')
    const { problems } = await verify(context, { evidenceKey: crypto.randomBytes(32) })
    expect(problems).toEqual([
      'ledger entry 1: HMAC does not match the evidence key',
      'ledger entry 1: seal HMAC does not match the evidence key',
    ])
  })

  it('will not start with the key file gone, or with another key, once the ledger holds entries', async () => {
    const context = await start()
    const keyFile = path.join(context.dataDir, EVIDENCE_KEY_FILE)
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600)
    const open = (setting?: string) => openEvidenceKey({ db: context.db, setting, dataDir: context.dataDir })
    // an empty ledger: the key is whatever this install has
    expect((await open()).equals(context.evidenceKey)).toBe(true)
    await fileClaimOf(context, '(555) 700-0015')
    await expect(open(crypto.randomBytes(32).toString('hex'))).rejects.toThrow(
      'the evidence key (EVIDENCE_KEY) is not the key the evidence ledger was sealed with',
    )
    expect((await open(context.evidenceKey.toString('hex'))).equals(context.evidenceKey)).toBe(true)
    fs.rmSync(keyFile)
    await expect(open()).rejects.toThrow(`${keyFile} is missing, yet the evidence ledger holds 1 entries`)
  })

  it('removes an expired claim only by purge, which leaves a tombstone the chain verifies with', async () => {
    const context = await start()
    const expired = await signedAt(yearsAgo(FIRM_SETTINGS.retentionYears + 1), () =>
      fileClaimOf(context, '(555) 700-0013'),
    )
    const kept = await fileClaimOf(context, '(555) 700-0014')
    const seal = await context.db
      .selectFrom('evidence_ledger')
      .select('seal')
      .where('subject', '=', `claim:${expired}`)
      .executeTakeFirstOrThrow()
    await purgeExpired({
      db: context.db,
      storage: context.storage,
      evidenceKey: context.evidenceKey,
      retentionYears: FIRM_SETTINGS.retentionYears,
      dryRun: false,
    })
    const tombstone = await context.db
      .selectFrom('evidence_ledger')
      .selectAll()
      .where('kind', '=', 'purge')
      .executeTakeFirstOrThrow()
    expect(tombstone).toMatchObject({ subject: `claim:${expired}`, seal: seal.seal })
    expect(JSON.parse(tombstone.detail)).toMatchObject({ reason: 'retention period over' })
    expect(await verify(context)).toMatchObject({ claims: 1, purged: 1, problems: [] })
    expect(await verify(context, { claimId: kept })).toMatchObject({ claims: 1, problems: [] })
  })
})
