import type { Insertable, Kysely, Selectable } from 'kysely'
import type { ClaimsTable, Database } from '../db/database.ts'

export type ClaimRow = Selectable<ClaimsTable>
export type NewClaimRow = Insertable<ClaimsTable>

export async function insertClaim(db: Kysely<Database>, row: NewClaimRow): Promise<{ id: number }> {
  const { id } = await db.insertInto('claims').values(row).returning('id').executeTakeFirstOrThrow()
  return { id: Number(id) }
}

export async function findClaimById(db: Kysely<Database>, id: number): Promise<ClaimRow | undefined> {
  return db.selectFrom('claims').selectAll().where('id', '=', id).executeTakeFirst()
}
