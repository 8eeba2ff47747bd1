import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { isPostgresDb } from '../../../server/db/dialect.ts'
import { sendEvidenceDigest } from '../../../server/evidence/evidence-digest.ts'
import { anchorFile, anchorLedgerHead } from '../../../server/evidence/ledger-anchor.ts'
import { verifyEvidence } from '../../../server/ops/verify-evidence.ts'
import { purgeExpired } from '../../../server/ops/purge-expired.ts'
import { createStaffMailer } from '../../../server/staff/staff-mailer.ts'
import { createLogger } from '../../../server/logger.ts'
import { ADMIN_EMAIL, createTestContext, DIALECTS, makePng, type TestContext } from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import { plainTextOf } from '../support/agreement-link.ts'
import { signedAt, yearsAgo } from '../support/signed-at.ts'

describe.each(DIALECTS)('%s: the ledger head anchored beside the key', (dialect) => {
  let ctx: TestContext | undefined
  afterEach(async () => {
    await ctx?.close()
    ctx = undefined
  })

  async function start(): Promise<TestContext> {
    ctx = await createTestContext(dialect)
    return ctx
  }

  async function fileClaimNo(context: TestContext, n: number, when = new Date().toISOString()) {
    const fields = { phoneNumber: `(555) 730-${String(n).padStart(4, '0')}`, email: `a${n}@example.com` }
    const screenshot = makePng({ width: 30 + n, height: 20 })
    return (await signedAt(when, () => fileClaim(context, { app: 'brigit', fields, screenshot }))).id
  }

  function anchor(context: TestContext) {
    return anchorLedgerHead({ db: context.db, evidenceKey: context.evidenceKey, dataDir: context.dataDir })
  }

  function verify(context: TestContext) {
    return verifyEvidence({
      db: context.db,
      storage: context.storage,
      evidenceKey: context.evidenceKey,
      dataDir: context.dataDir,
    })
  }

  function anchoredSeq(context: TestContext): number {
    return (JSON.parse(fs.readFileSync(anchorFile(context.dataDir), 'utf8')) as { seq: number }).seq
  }

  /**
   * What an attacker with the database's owner role (or its file) does: the guards go, then the newest
   * ledger entries and the claims they seal, which leaves no gap in the chain for its hashes to show.
   */
  async function removeNewest(context: TestContext, fromSeq: number) {
    for (const table of ['evidence_ledger', 'agreement_records']) {
      if (isPostgresDb(context.db)) {
        await sql`ALTER TABLE ${sql.table(table)} DISABLE TRIGGER USER`.execute(context.db)
        continue
      }
      const { rows } = await sql<{ name: string }>`
        SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${table}`.execute(context.db)
      for (const { name } of rows) await sql`DROP TRIGGER ${sql.id(name)}`.execute(context.db)
    }
    const entries = await context.db
      .selectFrom('evidence_ledger')
      .select('subject')
      .where('seq', '>=', fromSeq)
      .execute()
    const ids = entries.map(({ subject }) => Number(subject.split(':')[1]))
    await context.db.deleteFrom('agreement_records').where('claim_id', 'in', ids).execute()
    await context.db.deleteFrom('claims').where('id', 'in', ids).execute()
    await context.db.deleteFrom('evidence_ledger').where('seq', '>=', fromSeq).execute()
  }

  it('verifies a normal run, with the head file 0600 following the head', async () => {
    const context = await start()
    await fileClaimNo(context, 1)
    expect(await anchor(context)).toMatchObject({ head: { seq: 1 } })
    await fileClaimNo(context, 2)
    expect(await anchor(context)).toMatchObject({ head: { seq: 2 } })
    expect(anchoredSeq(context)).toBe(2)
    expect(fs.statSync(anchorFile(context.dataDir)).mode & 0o777).toBe(0o600)
    expect(await verify(context)).toMatchObject({ ledgerEntries: 2, claims: 2, problems: [] })
  })

  it('names a ledger that ends before its anchored head, once the newest entries went with their claims', async () => {
    const context = await start()
    for (let n = 1; n <= 3; n++) await fileClaimNo(context, n)
    await anchor(context)
    await removeNewest(context, 2)

    expect((await verify(context)).problems).toEqual([
      'ledger ends at entry 1 but the anchored head is entry 3 (entries were removed)',
    ])
    // the anchor never moves back: the shortened ledger is refused, the file stays
    expect(await anchor(context)).toMatchObject({
      problem: 'ledger ends at entry 1 but the anchored head is entry 3 (entries were removed)',
    })
    expect(anchoredSeq(context)).toBe(3)
  })

  it('names another entry at the anchored place, after the removed entries were written over', async () => {
    const context = await start()
    for (let n = 1; n <= 2; n++) await fileClaimNo(context, n)
    await anchor(context)
    await removeNewest(context, 2)
    await fileClaimNo(context, 3)

    expect((await verify(context)).problems).toEqual([
      "ledger entry 2: hash differs from the anchored head's (the chain was rewritten from there)",
    ])
  })

  it('names a head file whose HMAC does not match the evidence key', async () => {
    const context = await start()
    await fileClaimNo(context, 1)
    await anchor(context)
    const file = anchorFile(context.dataDir)
    const head = JSON.parse(fs.readFileSync(file, 'utf8')) as { seq: number }
    fs.writeFileSync(file, JSON.stringify({ ...head, seq: 0 }))

    expect((await verify(context)).problems).toEqual([
      `${file}: HMAC does not match the evidence key (the anchored head was changed)`,
    ])
  })

  it('keeps the chain growing through a purge, which appends its entries', async () => {
    const context = await start()
    await fileClaimNo(context, 1, yearsAgo(FIRM_SETTINGS.retentionYears + 1))
    await fileClaimNo(context, 2)
    await anchor(context)
    const purged = await purgeExpired({
      db: context.db,
      storage: context.storage,
      evidenceKey: context.evidenceKey,
      retentionYears: FIRM_SETTINGS.retentionYears,
      dryRun: false,
    })
    expect(purged).toMatchObject({ deletedClaims: 1, problems: [] })
    expect(await verify(context)).toMatchObject({ ledgerEntries: 3, purged: 1, problems: [] })
    expect(await anchor(context)).toEqual({ head: expect.objectContaining({ seq: 3 }) })
  })

  it('e-mails every active admin the head hash once a day, however many processes ask', async () => {
    const context = await start()
    await fileClaimNo(context, 1)
    const now = Date.now()
    await context.db
      .insertInto('staff_accounts')
      .values([
        {
          email: 'second.admin@firm.test',
          name: 'Second',
          role: 'admin',
          password_hash: 'x',
          created_at: now,
        },
        {
          email: 'gone.admin@firm.test',
          name: 'Gone',
          role: 'admin',
          password_hash: 'x',
          created_at: now,
          disabled_at: now,
        },
        { email: 'staff@firm.test', name: 'Staff', role: 'staff', password_hash: 'x', created_at: now },
      ] as never)
      .execute()
    const staffMailer = createStaffMailer({
      smtpUrl: undefined,
      dataDir: context.dataDir,
      from: 'Claims <claims@example.com>',
      logger: createLogger('silent'),
    })
    const head = await context.db.selectFrom('evidence_ledger').select('hash').executeTakeFirstOrThrow()

    const runs = await Promise.all([
      sendEvidenceDigest({ db: context.db, staffMailer }),
      sendEvidenceDigest({ db: context.db, staffMailer }),
    ])
    await sendEvidenceDigest({ db: context.db, staffMailer })

    expect(runs.map(({ sent }) => sent).sort()).toEqual([0, 2])
    const outbox = path.join(context.dataDir, 'outbox')
    const mails = fs.readdirSync(outbox).map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
    const recipients = mails.map((text) => /^To: (.+)$/m.exec(text)?.[1]?.trim()).sort()
    expect(recipients).toEqual([ADMIN_EMAIL, 'second.admin@firm.test'].sort())
    for (const text of mails) {
      expect(text).toMatch(/^Subject: Evidence ledger head, \d{4}-\d{2}-\d{2}: entry 1$/m)
      expect(plainTextOf(text)).toContain(head.hash)
    }
    // the next day's goes out again
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000)
    expect(await sendEvidenceDigest({ db: context.db, staffMailer, now: tomorrow })).toEqual({ sent: 2 })
  })
})
