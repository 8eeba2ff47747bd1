import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileOnce } from '../../../server/db/compile-once.ts'
import { compileClaimStatements } from '../../../server/submissions/claim-store.ts'
import { claimRow } from '../support/claim-fixtures.ts'
import { clearClaims, createTestContext, DIALECTS, type TestContext } from '../support/helpers.ts'

describe.each(DIALECTS)('%s: queries compiled once', (dialect) => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext(dialect)
  })
  afterAll(async () => {
    await ctx?.close()
  })

  it("runs with each call's values, on the database and inside its transactions", async () => {
    await clearClaims(ctx)
    const writes = compileClaimStatements(ctx.db)
    const first = await writes.insertClaim(ctx.db, claimRow('(555) 600-1000', 'Okafor'))
    const second = await ctx.db
      .transaction()
      .execute((trx) => writes.insertClaim(trx, claimRow('(555) 600-1001', 'Mensah')))
    expect(second.id).toBeGreaterThan(first.id)
    const rows = await ctx.db
      .selectFrom('claims')
      .select(['id', 'last_name', 'phone_number'])
      .orderBy('id')
      .execute()
    expect(rows.map((row) => [Number(row.id), row.last_name, row.phone_number])).toEqual([
      [first.id, 'Okafor', '(555) 600-1000'],
      [second.id, 'Mensah', '(555) 600-1001'],
    ])
    expect(await writes.hasClaimForPhone(ctx.db, { app: 'brigit', phoneNumber: '(555) 600-1001' })).toBe(true)
    expect(await writes.hasClaimForPhone(ctx.db, { app: 'earnin', phoneNumber: '(555) 600-1001' })).toBe(
      false,
    )
  })

  it('keeps a value fixed when the query was built, beside its slots', async () => {
    await clearClaims(ctx)
    const writes = compileClaimStatements(ctx.db)
    await writes.insertClaim(ctx.db, claimRow('(555) 600-2000', 'Okafor'))
    await writes.insertClaim(ctx.db, { ...claimRow('(555) 600-2001', 'Mensah'), app: 'earnin' })
    const brigitOnly = compileOnce<'lastName', { last_name: string }>((slot) =>
      ctx.db
        .selectFrom('claims')
        .select('last_name')
        .where('app', '=', 'brigit')
        .where('last_name', '!=', slot('lastName')),
    )
    expect((await brigitOnly(ctx.db, { lastName: 'Nobody' })).rows).toEqual([{ last_name: 'Okafor' }])
    expect((await brigitOnly(ctx.db, { lastName: 'Okafor' })).rows).toEqual([])
  })
})
