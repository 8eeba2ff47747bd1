import fs from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { createAccount, countAccounts, findAccountByEmail } from './staff-accounts.ts'
import { createInvite } from './staff-invites.ts'

/** Where a fresh install's set-up link is written (mode 0600), for the operator to open. */
export const SETUP_LINK_FILE = 'first-admin-link.txt'

export type FirstAdmin =
  { kind: 'created' | 'exists' } | { kind: 'setup-link'; file: string } | { kind: 'none' }

/**
 * A fresh install has no account. With ADMIN_EMAIL and ADMIN_PASSWORD both set, that admin is created
 * (once: an existing account of that e-mail is left as it is, its password managed in the app). Else,
 * while no account exists, a one-time set-up link goes into a 0600 file in DATA_DIR: the caller prints
 * only the file's path, so neither a password nor a token reaches a service log.
 */
export async function ensureFirstAdmin({
  db,
  adminEmail,
  adminPassword,
  dataDir,
  siteOrigin,
}: {
  db: Kysely<Database>
  adminEmail: string | undefined
  adminPassword: string | undefined
  dataDir: string
  /** PUBLIC_URL, else the address the server listens on. */
  siteOrigin: string
}): Promise<FirstAdmin> {
  if (adminEmail && adminPassword) {
    if (await findAccountByEmail(db, adminEmail)) return { kind: 'exists' }
    try {
      await createAccount(db, {
        email: adminEmail,
        name: 'Administrator',
        role: 'admin',
        apps: [],
        password: adminPassword,
      })
    } catch (error) {
      // another process starting at the same moment made it first
      if (await findAccountByEmail(db, adminEmail)) return { kind: 'exists' }
      throw error
    }
    return { kind: 'created' }
  }
  if ((await countAccounts(db)) > 0) return { kind: 'none' }
  // an older set-up link stops working: only the newest file's link opens
  await db.deleteFrom('staff_invites').where('account_id', 'is', null).execute()
  const token = await createInvite(db, null)
  const file = path.join(dataDir, SETUP_LINK_FILE)
  fs.rmSync(file, { force: true })
  fs.writeFileSync(
    file,
    `Open this link within 48 hours to create the first admin account (it works once):\n${siteOrigin}/staff/setup#token=${token}\n`,
    { mode: 0o600 },
  )
  return { kind: 'setup-link', file }
}
