import type { Kysely } from 'kysely'

const CHUNK = 500

/**
 * Near-copy flags made by the coarse hash alone flag different statements drawn on one bank app's layout:
 * every claim with an undecided near flag is checked again (its screenshot hashed anew, coarse and fine,
 * server/duplicates/near-copy.ts) and its near flags dropped until then. Flags of the same file and
 * pairs already decided stay as they are.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const trx = db as Kysely<{
    screenshot_matches: { claim_id: number; kind: string }
    screenshot_checks: { claim_id: number; due_at: number; attempts: number }
  }>
  const rows = await trx
    .selectFrom('screenshot_matches')
    .select('claim_id')
    .distinct()
    .where('kind', '=', 'near')
    .execute()
  await trx.deleteFrom('screenshot_matches').where('kind', '=', 'near').execute()
  for (let at = 0; at < rows.length; at += CHUNK) {
    await trx
      .insertInto('screenshot_checks')
      .values(rows.slice(at, at + CHUNK).map(({ claim_id }) => ({ claim_id, due_at: 0, attempts: 0 })))
      .onConflict((conflict) => conflict.column('claim_id').doUpdateSet({ due_at: 0, attempts: 0 }))
      .execute()
  }
}

export async function down(): Promise<void> {
  // the dropped flags come back only from a check: there is nothing to undo
}
