import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { hashPassword, verifyPassword } from './password-hash.ts'

const CREDENTIAL_ID = 1

/**
 * Makes sure the database holds the staff password's hash. ADMIN_PASSWORD, when set, is the password
 * (its hash replaces an older one). Unset on a first start, a password is generated and handed to
 * `announce` once; only its hash is kept.
 */
export async function ensureAdminPassword({
  db,
  adminPassword,
  announce,
}: {
  db: Kysely<Database>
  adminPassword: string | undefined
  announce: (password: string) => void
}): Promise<void> {
  const stored = await db.selectFrom('admin_credentials').select('password_hash').executeTakeFirst()
  if (adminPassword) {
    if (stored && (await verifyPassword(adminPassword, stored.password_hash))) return
    await saveHash(db, await hashPassword(adminPassword), Boolean(stored))
    return
  }
  if (stored) return
  const generated = crypto.randomBytes(18).toString('base64url')
  await saveHash(db, await hashPassword(generated), false)
  announce(generated)
}

export async function checkAdminPassword(db: Kysely<Database>, password: string): Promise<boolean> {
  const stored = await db.selectFrom('admin_credentials').select('password_hash').executeTakeFirst()
  if (!stored) return false // fail-closed: no password set means nobody gets in
  return verifyPassword(password, stored.password_hash)
}

async function saveHash(db: Kysely<Database>, passwordHash: string, exists: boolean): Promise<void> {
  if (exists) {
    await db
      .updateTable('admin_credentials')
      .set({ password_hash: passwordHash })
      .where('id', '=', CREDENTIAL_ID)
      .execute()
    return
  }
  // two processes starting together may both insert: the loser keeps the winner's password
  await db
    .insertInto('admin_credentials')
    .values({ id: CREDENTIAL_ID, password_hash: passwordHash, created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute()
}
