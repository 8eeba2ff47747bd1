import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { tokenHash } from '../platform/token-hash.ts'

/** An invitation (and a fresh install's set-up link) works once, within this. */
export const INVITE_TTL_MS = 48 * 60 * 60 * 1000

/**
 * Makes a one-time link's token for the account (null: the first admin's set-up link, which names no
 * account yet). Only its SHA-256 is kept; the token itself goes into the link and nowhere else.
 */
export async function createInvite(
  db: Kysely<Database> | Transaction<Database>,
  accountId: number | null,
  now = Date.now(),
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await db
    .insertInto('staff_invites')
    .values({
      token_hash: tokenHash(token),
      account_id: accountId,
      created_at: now,
      expires_at: now + INVITE_TTL_MS,
    })
    .execute()
  return token
}
