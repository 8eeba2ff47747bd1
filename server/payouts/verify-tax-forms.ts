import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { EXPORT_PAGE_SIZE, keysetPages } from '../db/keyset-pages.ts'
import { taxFormSeal, taxFormSubject } from './tax-form-seal.ts'

/**
 * The W-9s as verify-evidence checks them: each tax_forms row (or the one claim's) against the latest
 * seal of its subject (kind 'tax_form', subject w9:<claim id>), each marked seen, so that a W-9 sealed
 * and then removed is named too. Needs no payments key: the seal covers the taxpayer number as stored,
 * sealed. Returns how many W-9s it checked.
 */
export async function verifyTaxForms({
  db,
  claimId,
  seals,
  seen,
  problem,
}: {
  db: Kysely<Database>
  /** Only this claim's W-9. */
  claimId?: number
  /** The ledger's latest seal of each subject. */
  seals: ReadonlyMap<string, string>
  /** The subjects found in their tables, which this adds the W-9s to. */
  seen: Set<string>
  problem: (line: string) => void
}): Promise<number> {
  let count = 0
  const pages = keysetPages(
    (beforeId) => {
      let query = db
        .selectFrom('tax_forms')
        .selectAll()
        .where('claim_id', '<', beforeId)
        .orderBy('claim_id', 'desc')
        .limit(EXPORT_PAGE_SIZE)
      if (claimId !== undefined) query = query.where('claim_id', '=', claimId)
      return query.execute()
    },
    (row) => row.claim_id,
  )
  for await (const page of pages) {
    for (const row of page) {
      count += 1
      const subject = taxFormSubject(Number(row.claim_id))
      seen.add(subject)
      const name = `W-9 of claim ${row.claim_id}`
      const sealed = seals.get(subject)
      if (sealed === undefined) problem(`${name}: no seal in the ledger`)
      else if (taxFormSeal(row) !== sealed) problem(`${name}: sealed record differs (it was changed)`)
    }
  }
  return count
}
