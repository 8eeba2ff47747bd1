import { sql, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'

/**
 * Makes what decides a payment of `app` take turns, held until the transaction ends: building a payout
 * batch, correcting an award, and a claimant's change of payment choice or W-9. On PostgreSQL each
 * statement reads what was committed when it began, so without it two builds at once would both take
 * the claims neither has committed items for, and an award raised during a build would be paid at its
 * old amount; with it, whatever waits reads the build's items and is refused (or, first, is what the
 * build reads). SQLite runs one writing transaction at a time already, and one that read before another
 * committed is refused and run again (retryWhileLocked). Take it before the transaction reads anything.
 */
export async function lockAppPayouts(trx: Transaction<Database>, app: string): Promise<void> {
  if (isPostgresDb<Database>(trx)) {
    await sql`SELECT pg_advisory_xact_lock(${APP_PAYOUTS_LOCK}, hashtext(${app}))`.execute(trx)
  }
}

// the two-number form of an advisory lock, whose keys never meet the one-number locks of the ledger and
// of admin changes: this number, and the app's hash
const APP_PAYOUTS_LOCK = 0x5041_5953
