import { Migrator, sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../../migrations/index.ts'
import { createTestContext, type TestContext } from '../support/helpers.ts'

async function mergeSettings(db: Kysely<unknown>): Promise<Record<string, number>> {
  const { rows } = await sql<{ k: string; v: number }>`SELECT k, v FROM claims_search_config`.execute(db)
  return Object.fromEntries(rows.filter((row) => row.k !== 'version').map((row) => [row.k, Number(row.v)]))
}

describe('sqlite: the search index merges its segments 16 at a time', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext('sqlite')
  })
  afterAll(async () => {
    await ctx.close()
  })

  it('is set by the migration, and put back to FTS5 defaults by its down()', async () => {
    const db = ctx.db as unknown as Kysely<unknown>
    expect(await mergeSettings(db)).toEqual({ automerge: 16, crisismerge: 64 })
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } })
    // back to the migration before it (the later ones go down first)
    const down = await migrator.migrateTo('2026_11_22_1800_partition_claim_search')
    expect(down.error).toBeUndefined()
    expect(down.results?.at(-1)).toMatchObject({
      migrationName: '2026_11_22_1900_space_claim_search_merges',
      status: 'Success',
    })
    expect(await mergeSettings(db)).toEqual({ automerge: 4, crisismerge: 16 })
    await migrator.migrateToLatest()
    expect(await mergeSettings(db)).toEqual({ automerge: 16, crisismerge: 64 })
  })
})
