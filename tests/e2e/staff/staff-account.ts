import { inject } from 'vitest'
import { createDb } from '../../../server/db/create-db.ts'
import { createAccount, type NewAccount } from '../../../server/staff/staff-accounts.ts'

/**
 * Adds a staff account to the e2e server's SQLite database (the server runs in global-setup's process;
 * WAL mode lets this second connection write beside it), or to a server's own DATA_DIR.
 */
export async function addStaffAccount(account: NewAccount, dataDir = inject('dataDir')): Promise<number> {
  const { db } = createDb({ dataDir })
  try {
    return await createAccount(db, account)
  } finally {
    await db.destroy()
  }
}
