import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { legalHolds } from '../evidence/legal-hold.ts'
import { appendToLedger, lockLedger, subjectOf } from '../evidence/ledger.ts'
import { judgeClaimPage, judgeIntakePage, type Expired } from './purge-verdicts.ts'
import { checkSealedScreenshots } from './sealed-screenshots.ts'

export interface PurgeCandidate {
  kind: 'claim' | 'intake'
  id: number
  app: string
  /** The signing time inside the sealed record, which decided the age. */
  signedAt: string
}

export interface PurgeResult {
  cutoff: string
  /** What was deleted (on a dry run: what would be). */
  candidates: PurgeCandidate[]
  deletedClaims: number
  deletedIntakes: number
  removedFiles: number
  /** Expired claims kept, with their screenshots, because the file is not the one sealed (also in `problems`). */
  keptScreenshots: number
  /**
   * Records kept because their rows no longer match their seal, a ledger entry of theirs does not
   * verify, or a column the seal does not cover was changed: one line each, for someone to look into.
   */
  problems: string[]
}

const BATCH = 500

/**
 * Deletes claims (with their signed records and screenshots) and intakes (with their cases) signed
 * longer ago than the retention period, except those on legal hold. Only what the evidence key vouches
 * for decides (purge-verdicts.ts): the signing time inside the sealed record, once the record rebuilt
 * from its rows matches its seal, and the hold entries of the ledger (legal-hold.ts); a record that
 * fails a check is kept and named in `problems`, and so is a claim whose screenshot no longer has the
 * SHA-256 its seal covers (or cannot be read): the file and the row both stay (sealed-screenshots.ts).
 * Each deleted record leaves a purge entry in the evidence ledger (removeSealed), so the chain still
 * verifies without the personal data. Rows go first, then files: a crash in between leaves an orphan
 * file (the server's next start-up removes it), never a row without its screenshot. With dryRun
 * nothing is deleted.
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
  /** Verifies the seals and holds, and makes the HMACs of the purge entries written into the ledger. */
  evidenceKey: Buffer
  retentionYears: number
  now?: Date
  dryRun: boolean
}): Promise<PurgeResult> {
  const cutoffDate = new Date(now)
  cutoffDate.setUTCFullYear(cutoffDate.getUTCFullYear() - retentionYears)
  const cutoff = cutoffDate.toISOString()
  const result: PurgeResult = {
    cutoff,
    candidates: [],
    deletedClaims: 0,
    deletedIntakes: 0,
    removedFiles: 0,
    keptScreenshots: 0,
    problems: [],
  }
  const reason = { reason: 'retention period over', cutoff }
  for (const kind of ['claim', 'intake'] as const) {
    const judge = kind === 'claim' ? judgeClaimPage : judgeIntakePage
    for (let afterId = 0; ;) {
      const page = await judge({ db, evidenceKey, cutoff, afterId, limit: BATCH })
      result.problems.push(...page.problems)
      if (page.lastId === undefined) break
      afterId = page.lastId
      const screenshots = await checkSealedScreenshots(storage, page.expired)
      result.problems.push(...screenshots.problems)
      result.keptScreenshots += screenshots.problems.length
      const expired = screenshots.matching
      const removed = dryRun ? expired : await removeExpired(db, evidenceKey, expired, reason)
      result.candidates.push(...removed.map(({ kind, id, app, signedAt }) => ({ kind, id, app, signedAt })))
      if (dryRun) continue
      if (kind === 'intake') result.deletedIntakes += removed.length
      else result.deletedClaims += removed.length
      for (const { screenshotKey } of removed) {
        if (screenshotKey === undefined) continue
        await storage.remove(screenshotKey)
        result.removedFiles += 1
      }
    }
  }
  return result
}

/**
 * Removes one page's expired records in one transaction, asking the ledger again about holds once it
 * holds the ledger's lock: a hold set since the page was judged keeps its record.
 */
async function removeExpired(
  db: Kysely<Database>,
  evidenceKey: Buffer,
  expired: Expired[],
  detail: Record<string, string>,
): Promise<Expired[]> {
  if (expired.length === 0) return []
  const kind = expired[0]!.kind
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      if (isPostgresDb<Database>(trx)) await lockLedger(trx)
      const holds = await legalHolds(
        trx,
        evidenceKey,
        kind,
        expired.map(({ id }) => id),
      )
      const removed = expired.filter(({ id }) => !holds.get(id)!.isHeld)
      await removeSealed(trx, evidenceKey, { kind, ids: removed.map(({ id }) => id), detail })
      return removed
    }),
  )
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
    // the claimant's amendments go with the claim, each with its tombstone; their files become orphans
    const amendments = await trx
      .selectFrom('claim_amendments')
      .select('id')
      .where('claim_id', 'in', ids)
      .execute()
    if (amendments.length > 0) {
      const amendmentSubjects = amendments.map(({ id }) => subjectOf('amendment', Number(id)))
      const amendmentSeals = await trx
        .selectFrom('evidence_ledger')
        .select(['subject', 'seal'])
        .where('kind', '=', 'amendment')
        .where('subject', 'in', amendmentSubjects)
        .execute()
      const bySubject = new Map(amendmentSeals.map((row) => [row.subject, row.seal]))
      await appendToLedger(
        trx,
        evidenceKey,
        amendmentSubjects.map((subject) => ({
          kind: 'purge',
          subject,
          seal: bySubject.get(subject) ?? '',
          detail,
        })),
      )
    }
    await trx.deleteFrom('claim_amendments').where('claim_id', 'in', ids).execute()
    await trx
      .deleteFrom('claim_cure_links')
      .where('cure_id', 'in', trx.selectFrom('claim_cures').select('id').where('claim_id', 'in', ids))
      .execute()
    await trx.deleteFrom('claim_cures').where('claim_id', 'in', ids).execute()
    await trx.deleteFrom('claim_moves').where('claim_id', 'in', ids).execute()
    // a purged claim's row in its batches goes with it; the batch keeps its count and its hashes
    await trx.deleteFrom('filing_batch_claims').where('claim_id', 'in', ids).execute()
    await trx.deleteFrom('agreement_records').where('claim_id', 'in', ids).execute()
    await trx.deleteFrom('claims').where('id', 'in', ids).execute()
  } else {
    await trx.deleteFrom('intake_cases').where('original_submission_id', 'in', ids).execute()
    await trx.deleteFrom('form_submissions').where('id', 'in', ids).execute()
  }
}
