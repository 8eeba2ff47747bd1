import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { legalHolds, type HeldKind } from '../evidence/legal-hold.ts'
import { entriesAbout, isAuthenticEntry } from '../evidence/ledger.ts'
import { claimRecordFromRows, intakeRecordFromRow, sealOf } from '../evidence/sealed-record.ts'
import { SIGNED_RECORD_COLUMNS, signedRecordOf } from './verify-evidence.ts'

/** A record purge-expired may delete: its rows match its seal, its sealed signing time is past retention, no hold. */
export interface Expired {
  kind: HeldKind
  id: number
  app: string
  /** The signing time inside the sealed record. */
  signedAt: string
  /** Claims: the screenshot to remove once the rows are gone. */
  screenshotKey?: string
  /** Claims: the screenshot's SHA-256 the seal covers; the file is removed only while it still has it. */
  screenshotSha256?: string
}

export interface PageVerdicts {
  expired: Expired[]
  /** One line per record kept for a reason someone must look into (a changed row, a forged entry). */
  problems: string[]
  /** The last id of the page read; undefined once there is no more. */
  lastId: number | undefined
}

/**
 * The next page of claims that may be past retention, judged. The columns the seal does not cover
 * (created_at, legal_hold) only choose whom to look at, never decide: each record is rebuilt from its
 * rows and its seal compared with the ledger's, the signing time inside it decides the age, and the
 * ledger's hold entries decide the hold. The cached legal_hold column can keep a record, never free one.
 */
export async function judgeClaimPage({
  db,
  evidenceKey,
  cutoff,
  afterId,
  limit,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  cutoff: string
  afterId: number
  limit: number
}): Promise<PageVerdicts> {
  const rows = await db
    .selectFrom('claims')
    .leftJoin('agreement_records', 'agreement_records.claim_id', 'claims.id')
    .selectAll('claims')
    .select(SIGNED_RECORD_COLUMNS)
    .where((eb) =>
      eb.or([eb('claims.created_at', '<', cutoff), eb('agreement_records.signed_at', '<', cutoff)]),
    )
    .where('claims.id', '>', afterId)
    .orderBy('claims.id')
    .limit(limit)
    .execute()
  const ids = rows.map((row) => Number(row.id))
  const seals = await sealsOf(db, evidenceKey, 'claim', ids)
  const holds = await legalHolds(db, evidenceKey, 'claim', ids)
  const verdicts: PageVerdicts = { expired: [], problems: [], lastId: ids.at(-1) }
  for (const row of rows) {
    const id = Number(row.id)
    const name = `claim ${id}`
    const sealed = seals.get(id)!
    if (row.template === null) {
      verdicts.problems.push(`${name}: signed record missing; kept`)
      continue
    }
    if (typeof sealed !== 'string') {
      verdicts.problems.push(`${name}: ${sealed.problem}; kept`)
      continue
    }
    const record = claimRecordFromRows(row, signedRecordOf(row))
    if (sealOf(record) !== sealed) {
      verdicts.problems.push(
        `${name}: sealed record differs (the claim or its signed record was changed); kept`,
      )
      continue
    }
    const createdAt = isoTimestamp(row.created_at)
    const isExpired = record.signedAt < cutoff
    if (createdAt !== record.signedAt) {
      verdicts.problems.push(
        `${name}: created_at ${createdAt} is not the sealed signing time ${record.signedAt} (the row was changed); ` +
          (isExpired ? 'purged by the sealed time' : 'kept'),
      )
    }
    if (!isExpired || isKept(name, holds.get(id)!, Number(row.legal_hold), verdicts.problems)) continue
    verdicts.expired.push({
      kind: 'claim',
      id,
      app: row.app,
      signedAt: record.signedAt,
      screenshotKey: row.screenshot_key,
      screenshotSha256: row.screenshot_sha256,
    })
  }
  return verdicts
}

/** As judgeClaimPage, for main-form intakes, whose created_at is their sealed signing time. */
export async function judgeIntakePage({
  db,
  evidenceKey,
  cutoff,
  afterId,
  limit,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  cutoff: string
  afterId: number
  limit: number
}): Promise<PageVerdicts> {
  const rows = await db
    .selectFrom('form_submissions')
    .selectAll()
    .where('created_at', '<', cutoff)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute()
  const ids = rows.map((row) => Number(row.id))
  const seals = await sealsOf(db, evidenceKey, 'intake', ids)
  const holds = await legalHolds(db, evidenceKey, 'intake', ids)
  const verdicts: PageVerdicts = { expired: [], problems: [], lastId: ids.at(-1) }
  for (const row of rows) {
    const id = Number(row.id)
    const name = `intake ${id}`
    const sealed = seals.get(id)!
    if (typeof sealed !== 'string') {
      verdicts.problems.push(`${name}: ${sealed.problem}; kept`)
      continue
    }
    const record = intakeRecordFromRow(row)
    if (sealOf(record) !== sealed) {
      verdicts.problems.push(`${name}: sealed record differs (it was changed); kept`)
      continue
    }
    if (isKept(name, holds.get(id)!, Number(row.legal_hold), verdicts.problems)) continue
    const apps = (JSON.parse(row.cash_advance_apps) as string[]).join('+')
    verdicts.expired.push({ kind: 'intake', id, app: apps, signedAt: record.signedAt })
  }
  return verdicts
}

/** Whether a hold keeps the record, naming a hold the database and the ledger disagree on. */
function isKept(
  name: string,
  hold: { isHeld: boolean; isForged: boolean },
  column: number,
  problems: string[],
): boolean {
  if (hold.isForged)
    problems.push(`${name}: a legal hold entry in the ledger does not verify (hash or HMAC); kept`)
  else if (hold.isHeld && column !== 1) {
    problems.push(
      `${name}: on legal hold in the ledger, but its legal_hold column says ${column} (changed in the database); kept`,
    )
  }
  // a column set without a ledger entry (by hand, before holds were sealed) keeps the record too: fail-closed
  return hold.isHeld || column === 1
}

/** Each record's seal as its own ledger entry holds it, once that entry's hash and HMACs verify. */
async function sealsOf(
  db: Kysely<Database>,
  evidenceKey: Buffer,
  kind: HeldKind,
  ids: readonly number[],
): Promise<Map<number, string | { problem: string }>> {
  const seals = new Map<number, string | { problem: string }>(
    ids.map((id) => [id, { problem: 'no seal in the ledger' }]),
  )
  for (const { id, entry } of await entriesAbout(db, { subject: kind, ids, kinds: [kind] })) {
    seals.set(
      id,
      isAuthenticEntry(entry, evidenceKey)
        ? entry.seal
        : { problem: `its seal's ledger entry ${Number(entry.seq)} does not verify (hash or HMAC)` },
    )
  }
  return seals
}
