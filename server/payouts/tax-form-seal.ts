import type { Selectable, Transaction } from 'kysely'
import type { Database, TaxFormsTable } from '../db/database.ts'
import { canonicalJson } from '../evidence/canonical-json.ts'
import { appendToLedger } from '../evidence/ledger.ts'
import { sha256Hex } from '../platform/token-hash.ts'

/** The ledger's subject of a claim's W-9 (one per claim; a new one replaces it and is sealed again). */
export function taxFormSubject(claimId: number): string {
  return `w9:${claimId}`
}

/**
 * A W-9 as sealed: every column, canonical, so anyone can recompute its seal from the row. The taxpayer
 * number is in it only as stored, sealed under the payments key (sealed-numbers.ts): the seal covers the
 * number without the ledger, or whoever checks it, ever holding it in the clear, and a number changed
 * in the row (or moved in from another row) no longer matches.
 */
export function taxFormSeal(row: Selectable<TaxFormsTable>): string {
  return sha256Hex(
    canonicalJson({
      claimId: Number(row.claim_id),
      legalName: row.legal_name,
      tinType: row.tin_type,
      tinSealed: row.tin_sealed,
      tinLast4: row.tin_last4,
      address: row.address,
      city: row.city,
      state: row.state,
      zipCode: row.zip_code,
      signatureMethod: row.signature_method,
      signature: row.signature,
      certifiedAt: Number(row.certified_at),
      ipAddress: row.ip_address,
      userAgent: row.user_agent,
    }),
  )
}

/**
 * Stores a claim's signed W-9 (replacing an earlier one) and seals it on the evidence chain (kind
 * 'tax_form', subject w9:<claim id>) in the caller's transaction: the row and its seal commit together.
 * A replaced W-9 leaves its seal in the chain; the latest seal of the subject is the row's.
 * verify-evidence.ts checks it.
 */
export async function recordTaxForm(
  trx: Transaction<Database>,
  evidenceKey: Buffer,
  row: TaxFormsTable,
): Promise<void> {
  const { claim_id: _key, ...changes } = row
  const stored = await trx
    .insertInto('tax_forms')
    .values(row)
    .onConflict((conflict) => conflict.column('claim_id').doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow()
  await appendToLedger(trx, evidenceKey, [
    {
      kind: 'tax_form',
      subject: taxFormSubject(row.claim_id),
      seal: taxFormSeal(stored),
      detail: { tinType: row.tin_type },
    },
  ])
}
