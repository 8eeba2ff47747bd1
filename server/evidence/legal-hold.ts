import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { appendToLedger, entriesAbout, isAuthenticEntry, LEGAL_HOLD_KINDS, subjectOf } from './ledger.ts'

export type HeldKind = 'claim' | 'intake'

/** A record's legal hold as the ledger tells it. */
export interface LegalHold {
  isHeld: boolean
  /** A hold entry under the subject whose hash or HMAC fails: the record is kept (fail-closed). */
  isForged: boolean
}

const TABLES = { claim: 'claims', intake: 'form_submissions' } as const

/**
 * The one way a legal hold is set or lifted: an entry in the evidence ledger (legal_hold_set or
 * legal_hold_lifted, the record's subject and seal, the reason and who), with the legal_hold column
 * written beside it in the same transaction. The column is only a cache for reading: purge-expired
 * decides by the ledger, whose entries no one can add or change without the evidence key.
 */
export async function setLegalHold({
  db,
  evidenceKey,
  kind,
  id,
  isHeld,
  reason,
  actor,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  kind: HeldKind
  id: number
  isHeld: boolean
  /** Why, in words that are no one's personal data: 'litigation hold, case 2026-CV-114'. */
  reason: string
  /** Who: a staff account's e-mail, or 'command line'. */
  actor: string
}): Promise<{ changed: boolean }> {
  if (reason.trim() === '') {
    throw new AppError('BAD_REQUEST', { status: 400, message: 'a legal hold needs a "reason"' })
  }
  const subject = subjectOf(kind, id)
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom(TABLES[kind] as 'claims')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) throw new AppError('NOT_FOUND', { status: 404, message: `${kind} ${id} not found` })
      const sealed = await trx
        .selectFrom('evidence_ledger')
        .select('seal')
        .where('subject', '=', subject)
        .where('kind', '=', kind)
        .executeTakeFirst()
      if (!sealed) {
        throw new AppError('NOT_FOUND', {
          status: 404,
          message: `${kind} ${id} has no seal in the evidence ledger: run npm run verify-evidence`,
        })
      }
      const holds = await legalHolds(trx, evidenceKey, kind, [id])
      const changed = holds.get(id)!.isHeld !== isHeld
      if (changed) {
        await appendToLedger(trx, evidenceKey, [
          {
            kind: isHeld ? 'legal_hold_set' : 'legal_hold_lifted',
            subject,
            seal: sealed.seal,
            detail: { reason: reason.trim(), by: actor },
          },
        ])
      }
      await trx
        .updateTable(TABLES[kind] as 'claims')
        .set({ legal_hold: isHeld ? 1 : 0 })
        .where('id', '=', id)
        .execute()
      return { changed }
    }),
  )
}

/**
 * Each record's hold as its last hold entry in the ledger says. A hold entry that fails its hash or
 * HMAC was forged or changed: the record counts as held (fail-closed) and isForged says why.
 */
export async function legalHolds(
  db: Kysely<Database> | Transaction<Database>,
  evidenceKey: Buffer,
  kind: HeldKind,
  ids: readonly number[],
): Promise<Map<number, LegalHold>> {
  const holds = new Map(ids.map((id) => [id, { isHeld: false, isForged: false }]))
  for (const { id, entry } of await entriesAbout(db, { subject: kind, ids, kinds: LEGAL_HOLD_KINDS })) {
    const hold = holds.get(id)
    if (!hold) continue
    if (!isAuthenticEntry(entry, evidenceKey)) hold.isForged = true
    else hold.isHeld = entry.kind === 'legal_hold_set'
  }
  for (const hold of holds.values()) if (hold.isForged) hold.isHeld = true // fail-closed
  return holds
}
