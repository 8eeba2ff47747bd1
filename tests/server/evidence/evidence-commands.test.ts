import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { anchorLedgerHead } from '../../../server/evidence/ledger-anchor.ts'
import { createTestContext, makePng, type TestContext } from '../support/helpers.ts'
import { fileClaim } from '../support/claims.ts'
import { signedAt, yearsAgo } from '../support/signed-at.ts'
import { productScript } from '../support/compiled-product.ts'

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..')

// the commands open the database as the server does, from DATA_DIR: the SQLite file of a test context
describe('npm run legal-hold, purge-expired and verify-evidence', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext('sqlite')
  })
  afterAll(async () => {
    await ctx?.close()
  })

  function run(script: string, ...args: string[]) {
    const result = spawnSync(process.execPath, [...productScript(`scripts/${script}`), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: ctx.dataDir, DATABASE_URL: '', EVIDENCE_KEY: '' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  async function fileClaimSigned(phone: string, when: string): Promise<number> {
    const screenshot = makePng({ width: 40, height: 20 })
    return (
      await signedAt(when, () =>
        fileClaim(ctx, { app: 'brigit', fields: { phoneNumber: phone }, screenshot }),
      )
    ).id
  }

  it('holds and lifts through the ledger, purges by the seal and exits 1 naming a changed claim', async () => {
    const old = await fileClaimSigned('(555) 240-0001', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
    const recent = await fileClaimSigned('(555) 240-0002', new Date().toISOString())
    await sql`UPDATE claims SET created_at = '2001-01-01T00:00:00.000Z' WHERE id = ${recent}`.execute(ctx.db)

    expect(run('legal-hold', 'set', '--claim', String(old), '--reason', 'litigation hold')).toMatchObject({
      status: 0,
      stdout: `claim ${old}: on legal hold (written into the evidence ledger)\n`,
    })
    const held = run('purge-expired')
    expect(held.status).toBe(1)
    expect(held.stdout).toContain(
      `claim ${recent}: created_at 2001-01-01T00:00:00.000Z is not the sealed signing time`,
    )
    expect(held.stdout).toContain('deleted 0 claims')

    expect(run('legal-hold', 'lift', '--claim', String(old), '--reason', 'case settled')).toMatchObject({
      status: 0,
    })
    const audit = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'actor', 'detail'])
      .orderBy('id')
      .execute()
    expect(audit.filter(({ action }) => action.startsWith('legal_hold'))).toEqual([
      { action: 'legal_hold_set', actor: 'command line', detail: `claim ${old}: litigation hold` },
      { action: 'legal_hold_lifted', actor: 'command line', detail: `claim ${old}: case settled` },
    ])
    const purged = run('purge-expired')
    expect(purged.stdout).toContain(`claim\t${old}\tbrigit\t`)
    expect(purged.stdout).toContain('deleted 1 claims')
    const left = await ctx.db.selectFrom('claims').select('id').execute()
    expect(left.map(({ id }) => Number(id))).toEqual([recent])
  })

  it('purge-expired keeps a claim whose screenshot was replaced, counts it in its summary and exits 1', async () => {
    const id = await fileClaimSigned('(555) 240-0003', yearsAgo(FIRM_SETTINGS.retentionYears + 1))
    const { screenshot_key: key } = await ctx.db
      .selectFrom('claims')
      .select('screenshot_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const file = path.join(ctx.dataDir, 'screenshots', key)
    const sealedBytes = fs.readFileSync(file)
    fs.writeFileSync(file, makePng({ width: 41, height: 20 }))

    const purged = run('purge-expired')

    expect(purged.status).toBe(1)
    expect(purged.stdout).toContain(
      '1 expired claims kept with their screenshots: the file does not match its sealed hash or cannot be read',
    )
    expect(purged.stdout).toContain(
      `claim ${id}: screenshot ${key} does not match its sealed hash; kept with its claim`,
    )
    expect(fs.existsSync(file)).toBe(true)
    const left = await ctx.db.selectFrom('claims').select('id').where('id', '=', id).execute()
    expect(left).toHaveLength(1)
    // the next test verifies the whole store
    fs.writeFileSync(file, sealedBytes)
  })

  it('verify-evidence exits 1 once the ledger ends before its anchored head', async () => {
    await sql`UPDATE claims SET created_at = (SELECT signed_at FROM agreement_records WHERE claim_id = claims.id)`.execute(
      ctx.db,
    )
    expect(run('verify-evidence')).toMatchObject({ status: 0 })
    const { head } = await anchorLedgerHead({
      db: ctx.db,
      evidenceKey: ctx.evidenceKey,
      dataDir: ctx.dataDir,
    })
    for (const { name } of (
      await sql<{
        name: string
      }>`SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'evidence_ledger'`.execute(
        ctx.db,
      )
    ).rows) {
      await sql`DROP TRIGGER ${sql.id(name)}`.execute(ctx.db)
    }
    await sql`DELETE FROM evidence_ledger WHERE seq = ${head!.seq}`.execute(ctx.db)

    const verified = run('verify-evidence')
    expect(verified.status).toBe(1)
    expect(verified.stdout).toContain(
      `ledger ends at entry ${head!.seq - 1} but the anchored head is entry ${head!.seq} (entries were removed)`,
    )
  })
})
