import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { isoTimestamp } from '../db/timestamp.ts'

export interface PurgeCandidate {
  kind: 'claim' | 'intake'
  id: number
  app: string
  createdAt: string
}

export interface PurgeResult {
  cutoff: string
  candidates: PurgeCandidate[]
  deletedClaims: number
  deletedIntakes: number
  removedFiles: number
}

const BATCH = 500

/**
 * Deletes claims (with their signed records and screenshots) and intakes (with their cases) older than
 * the retention period, except those on legal hold. Rows go first, then files: a crash in between
 * leaves an orphan file (the server's next start-up removes it), never a row without its screenshot.
 * With dryRun nothing is deleted.
 */
export async function purgeExpired({
  db,
  storage,
  retentionYears,
  now = new Date(),
  dryRun,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  retentionYears: number
  now?: Date
  dryRun: boolean
}): Promise<PurgeResult> {
  const cutoffDate = new Date(now)
  cutoffDate.setUTCFullYear(cutoffDate.getUTCFullYear() - retentionYears)
  const cutoff = cutoffDate.toISOString()
  const claims = await db
    .selectFrom('claims')
    .select(['id', 'app', 'created_at', 'screenshot_key'])
    .where('created_at', '<', cutoff)
    .where('legal_hold', '=', 0)
    .orderBy('id')
    .execute()
  const intakes = await db
    .selectFrom('form_submissions')
    .select(['id', 'cash_advance_apps', 'created_at'])
    .where('created_at', '<', cutoff)
    .where('legal_hold', '=', 0)
    .orderBy('id')
    .execute()
  const candidates: PurgeCandidate[] = [
    ...claims.map((row) => ({
      kind: 'claim' as const,
      id: Number(row.id),
      app: row.app,
      createdAt: isoTimestamp(row.created_at),
    })),
    ...intakes.map((row) => ({
      kind: 'intake' as const,
      id: Number(row.id),
      app: (JSON.parse(row.cash_advance_apps) as string[]).join('+'),
      createdAt: isoTimestamp(row.created_at),
    })),
  ]
  if (dryRun) return { cutoff, candidates, deletedClaims: 0, deletedIntakes: 0, removedFiles: 0 }

  let removedFiles = 0
  for (let start = 0; start < claims.length; start += BATCH) {
    const batch = claims.slice(start, start + BATCH)
    const ids = batch.map((row) => Number(row.id))
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('agreement_records').where('claim_id', 'in', ids).execute()
      await trx.deleteFrom('claims').where('id', 'in', ids).execute()
    })
    for (const row of batch) {
      await storage.remove(row.screenshot_key)
      removedFiles += 1
    }
  }
  for (let start = 0; start < intakes.length; start += BATCH) {
    const ids = intakes.slice(start, start + BATCH).map((row) => Number(row.id))
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('intake_cases').where('original_submission_id', 'in', ids).execute()
      await trx.deleteFrom('form_submissions').where('id', 'in', ids).execute()
    })
  }
  return { cutoff, candidates, deletedClaims: claims.length, deletedIntakes: intakes.length, removedFiles }
}
