import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'

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
 * the retention period, except those on legal hold. Each leaves a purge entry in the evidence ledger
 * (removeSealed), so the chain still verifies without the personal data. Rows go first, then files: a crash in between
 * leaves an orphan file (the server's next start-up removes it), never a row without its screenshot.
 * With dryRun nothing is deleted.
 */
export async function purgeExpired({
  db,
  storage,
  retentionYears,
  evidenceKey,
  now = new Date(),
  dryRun,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  /** Makes the HMACs of the purge entries written into the evidence ledger. */
  evidenceKey: Buffer
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

  const reason = { reason: 'retention period over', cutoff }
  let removedFiles = 0
  for (let start = 0; start < claims.length; start += BATCH) {
    const batch = claims.slice(start, start + BATCH)
    const ids = batch.map((row) => Number(row.id))
    await retryWhileLocked(() =>
      db
        .transaction()
        .execute((trx) => removeSealed(trx, evidenceKey, { kind: 'claim', ids, detail: reason })),
    )
    for (const row of batch) {
      await storage.remove(row.screenshot_key)
      removedFiles += 1
    }
  }
  for (let start = 0; start < intakes.length; start += BATCH) {
    const ids = intakes.slice(start, start + BATCH).map((row) => Number(row.id))
    await retryWhileLocked(() =>
      db
        .transaction()
        .execute((trx) => removeSealed(trx, evidenceKey, { kind: 'intake', ids, detail: reason })),
    )
  }
  return { cutoff, candidates, deletedClaims: claims.length, deletedIntakes: intakes.length, removedFiles }
}

/**
 * The one way a sealed claim or intake leaves the database: a purge entry for each goes into the
 * evidence ledger (its subject, the seal it had, why), then its rows go, in the caller's transaction.
 * The database refuses to remove a signed record that has no purge entry. Screenshots are the
 * caller's to remove, after the commit.
 */
export async function removeSealed(
  trx: Transaction<Database>,
  evidenceKey: Buffer,
  { kind, ids, detail }: { kind: 'claim' | 'intake'; ids: number[]; detail: Record<string, string> },
): Promise<void> {
  if (ids.length === 0) return
  const subjects = ids.map((id) => subjectOf(kind, id))
  const sealed = await trx
    .selectFrom('evidence_ledger')
    .select(['subject', 'seal'])
    .where('kind', '=', kind)
    .where('subject', 'in', subjects)
    .execute()
  const seals = new Map(sealed.map((row) => [row.subject, row.seal]))
  await appendToLedger(
    trx,
    evidenceKey,
    subjects.map((subject) => ({ kind: 'purge', subject, seal: seals.get(subject) ?? '', detail })),
  )
  if (kind === 'claim') {
    await trx.deleteFrom('agreement_records').where('claim_id', 'in', ids).execute()
    await trx.deleteFrom('claims').where('id', 'in', ids).execute()
  } else {
    await trx.deleteFrom('intake_cases').where('original_submission_id', 'in', ids).execute()
    await trx.deleteFrom('form_submissions').where('id', 'in', ids).execute()
  }
}
