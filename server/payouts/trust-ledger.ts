import type { Insertable, Selectable, Transaction } from 'kysely'
import type { Database, TrustEntriesTable, TrustEntryKind } from '../db/database.ts'
import { canonicalJson } from '../evidence/canonical-json.ts'
import { appendToLedger } from '../evidence/ledger.ts'
import { sha256Hex } from '../platform/token-hash.ts'

export type NewTrustEntry = Omit<Insertable<TrustEntriesTable>, 'id'>

/** Which way each kind moves money: into the trust account (+) or out of it (-). */
export const TRUST_SIGN: Record<TrustEntryKind, 1 | -1> = {
  received: 1,
  returned: 1,
  fee: -1,
  costs: -1,
  withholding: -1,
  net: -1,
}

/** The ledger's subject of a trust entry. */
export function trustSubject(id: number): string {
  return `trust:${id}`
}

/** A trust entry as sealed: every column, canonical, so anyone can recompute its seal from the row. */
export function trustSeal(row: Selectable<TrustEntriesTable>): string {
  return sha256Hex(
    canonicalJson({
      id: Number(row.id),
      app: row.app,
      batchId: row.batch_id === null ? null : Number(row.batch_id),
      claimId: row.claim_id === null ? null : Number(row.claim_id),
      kind: row.kind,
      amountCents: Number(row.amount_cents),
      at: Number(row.at),
    }),
  )
}

/**
 * Writes movements of the trust account in the caller's transaction, each sealed on the evidence chain
 * (kind 'trust'): they commit with the award or payment they record, or not at all. An amount's sign
 * must be its kind's (TRUST_SIGN), so a sum of the entries is what the account holds.
 */
export async function recordTrustEntries(
  trx: Transaction<Database>,
  evidenceKey: Buffer,
  entries: readonly NewTrustEntry[],
): Promise<void> {
  if (entries.length === 0) return
  for (const entry of entries) {
    const amount = Number(entry.amount_cents)
    if (!Number.isSafeInteger(amount) || Math.sign(amount) * TRUST_SIGN[entry.kind] < 0) {
      throw new Error(`a ${entry.kind} trust entry of ${amount} cents has the wrong sign`)
    }
  }
  const rows: Selectable<TrustEntriesTable>[] = []
  // a statement takes at most 65,535 parameters, six an entry
  for (let start = 0; start < entries.length; start += 1000) {
    rows.push(
      ...(await trx
        .insertInto('trust_entries')
        .values(entries.slice(start, start + 1000))
        .returningAll()
        .execute()),
    )
  }
  await appendToLedger(
    trx,
    evidenceKey,
    rows.map((row) => ({
      kind: 'trust',
      subject: trustSubject(Number(row.id)),
      seal: trustSeal(row),
      detail: { kind: row.kind, amountCents: Number(row.amount_cents) },
    })),
  )
}
