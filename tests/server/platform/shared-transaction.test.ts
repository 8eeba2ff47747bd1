import path from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUniqueViolation, SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import { inSharedTransaction } from '../../../server/db/shared-transaction.ts'
import { claimRow } from '../support/claim-fixtures.ts'
import {
  clearClaims,
  createTestContext,
  DIALECTS,
  insertClaim,
  type TestContext,
} from '../support/helpers.ts'

describe.each(DIALECTS)('%s: writes that arrive together', (dialect) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(dialect)
  })
  afterAll(async () => {
    await ctx?.close()
  })

  async function storedLastNames(): Promise<string[]> {
    const rows = await ctx.db.selectFrom('claims').select('last_name').orderBy('last_name').execute()
    return rows.map((row) => row.last_name)
  }

  it('commits each of them and gives each caller its own result', async () => {
    await clearClaims(ctx)
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        inSharedTransaction(ctx.db, (trx) =>
          insertClaim(trx, claimRow(`(555) 300-${1000 + i}`, `Claimant${100 + i}`)),
        ),
      ),
    )
    expect(new Set(ids.map(({ id }) => id)).size).toBe(30)
    const rows = await ctx.db.selectFrom('claims').select(['id', 'last_name']).execute()
    expect(rows).toHaveLength(30)
    for (const [i, { id }] of ids.entries()) {
      expect(rows.find((row) => row.id === id)?.last_name).toBe(`Claimant${100 + i}`)
    }
  })

  it('fails only the write that breaks a rule; the others are stored', async () => {
    await clearClaims(ctx)
    const outcomes = await Promise.allSettled([
      inSharedTransaction(ctx.db, (trx) => insertClaim(trx, claimRow('(555) 300-2000', 'First'))),
      // the same app and phone as the one before it, in the same transaction
      inSharedTransaction(ctx.db, (trx) => insertClaim(trx, claimRow('(555) 300-2000', 'Duplicate'))),
      inSharedTransaction(ctx.db, (trx) => insertClaim(trx, claimRow('(555) 300-2001', 'Second'))),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(isUniqueViolation((outcomes[1] as PromiseRejectedResult).reason)).toBe(true)
    expect(await storedLastNames()).toEqual(['First', 'Second'])
  })

  it('keeps a write all-or-nothing: one that throws after its insert leaves no row', async () => {
    await clearClaims(ctx)
    const outcomes = await Promise.allSettled([
      inSharedTransaction(ctx.db, (trx) => insertClaim(trx, claimRow('(555) 300-3000', 'Kept'))),
      inSharedTransaction(ctx.db, async (trx) => {
        await insertClaim(trx, claimRow('(555) 300-3001', 'Undone'))
        throw new Error('the screenshot was removed before its claim committed')
      }),
    ])
    expect(outcomes[0]!.status).toBe('fulfilled')
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe(
      'the screenshot was removed before its claim committed',
    )
    expect(await storedLastNames()).toEqual(['Kept'])
  })

  // SQLite only: PostgreSQL waits for its row locks inside the server
  if (dialect === 'sqlite') {
    it('waits while another process holds the write lock, then commits, without blocking the event loop', async () => {
      await clearClaims(ctx)
      // another server process in the middle of its own transaction
      const other = new SQLite(path.join(ctx.dataDir, SQLITE_FILE_NAME))
      other.exec('BEGIN IMMEDIATE')
      // SQLite refuses at once instead of waiting (as it sometimes does across processes)
      await sql`pragma busy_timeout = 0`.execute(ctx.db)
      let ticks = 0
      const ticker = setInterval(() => ticks++, 10)
      try {
        const released = new Promise<void>((resolve) =>
          setTimeout(() => {
            other.exec('COMMIT')
            resolve()
          }, 300),
        )
        const ids = await Promise.all([
          inSharedTransaction(ctx.db, (trx) => insertClaim(trx, claimRow('(555) 400-4000', 'Waited'))),
          inSharedTransaction(ctx.db, (trx) => insertClaim(trx, claimRow('(555) 400-4001', 'Patient'))),
        ])
        await released
        expect(ids.map((row) => typeof row.id)).toEqual(['number', 'number'])
        expect(await storedLastNames()).toEqual(['Patient', 'Waited'])
        // the timers ran while the claims waited for the lock
        expect(ticks).toBeGreaterThan(10)
      } finally {
        clearInterval(ticker)
        await sql`pragma busy_timeout = 5000`.execute(ctx.db)
        other.close()
      }
    })
  }
})
