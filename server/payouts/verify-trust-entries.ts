import type { Kysely } from 'kysely'
import { formatCents } from '../../src/money.ts'
import type { Database } from '../db/database.ts'
import { EXPORT_PAGE_SIZE } from '../db/keyset-pages.ts'
import { reconcilePayouts } from './reconciliation.ts'
import { trustSeal, trustSubject } from './trust-ledger.ts'

/**
 * The trust account as verify-evidence checks it: every trust_entries row against the seal its ledger
 * entry holds (kind 'trust', subject trust:<id>), each marked seen; and every app's reconciliation,
 * whose difference between the entries and the awards and items must be 0 cents. Returns how many
 * entries it checked.
 */
export async function verifyTrustEntries({
  db,
  seals,
  seen,
  problem,
}: {
  db: Kysely<Database>
  /** The ledger's seals by subject. */
  seals: ReadonlyMap<string, string>
  /** The subjects found in their tables, which this adds the trust entries to. */
  seen: Set<string>
  problem: (line: string) => void
}): Promise<number> {
  let count = 0
  for (let afterId = 0; ;) {
    const page = await db
      .selectFrom('trust_entries')
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(EXPORT_PAGE_SIZE)
      .execute()
    for (const row of page) {
      count += 1
      const subject = trustSubject(Number(row.id))
      seen.add(subject)
      const sealed = seals.get(subject)
      if (sealed === undefined) problem(`trust entry ${row.id}: no seal in the ledger`)
      else if (trustSeal(row) !== sealed) {
        problem(
          `trust entry ${row.id} (${row.kind} of claim ${row.claim_id ?? 'none'}): sealed record differs (it was changed)`,
        )
      }
    }
    if (page.length < EXPORT_PAGE_SIZE) break
    afterId = Number(page.at(-1)!.id)
  }
  const apps = new Set(
    [
      ...(await db.selectFrom('claim_awards').select('app').distinct().execute()),
      ...(await db.selectFrom('trust_entries').select('app').distinct().execute()),
    ].map((row) => row.app),
  )
  for (const app of [...apps].sort()) {
    const { differences, differenceCents } = await reconcilePayouts(db, { app })
    if (differenceCents === 0) continue
    const figures = Object.entries(differences)
      .filter(([, cents]) => cents !== 0)
      .map(([figure, cents]) => `${figure} ${formatCents(cents)}`)
      .join(', ')
    problem(`payouts of "${app}": the trust entries and the awards and items differ (${figures})`)
  }
  return count
}
