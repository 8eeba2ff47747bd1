import crypto from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { Database } from '../db/database.ts'
import type { Contact } from './own-agreements.ts'
import { tokenHash } from '../platform/token-hash.ts'

export type LinkPurpose = 'link' | 'download'

/** 32 random bytes, base64url: what a link's fragment or a download request carries. */
export function newLinkToken(): string {
  return crypto.randomBytes(32).toString('base64url')
}

/** Whether `value` has a token's shape (43 base64url characters). */
export function isLinkToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value)
}

/** Stores the token's hash and the contact it stands for, until `now + ttlMs`. */
export async function insertAgreementLink(
  db: Kysely<Database>,
  {
    token,
    purpose,
    contact,
    now,
    ttlMs,
  }: {
    token: string
    purpose: LinkPurpose
    contact: Contact
    now: number
    ttlMs: number
  },
): Promise<void> {
  await db
    .insertInto('agreement_links')
    .values({
      token_hash: tokenHash(token),
      purpose,
      email: contact.email,
      phone_numbers: JSON.stringify(contact.phoneNumbers),
      created_at: now,
      expires_at: now + ttlMs,
      used_at: null,
    })
    .execute()
}

export async function deleteAgreementLink(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('agreement_links').where('token_hash', '=', tokenHash(token)).execute()
}

/**
 * Stores a new e-mailed link for the contact unless its address already holds `limit` links not yet
 * used nor expired; false when it does. Counting and storing are one transaction that takes turns per
 * address (PostgreSQL: a lock held to the commit; SQLite: one writer at a time, a transaction that read
 * before another committed is run again), so requests at once, on any server process, cannot pass the
 * limit together.
 */
export async function reserveAgreementLink(
  db: Kysely<Database>,
  {
    token,
    contact,
    now,
    ttlMs,
    limit,
  }: { token: string; contact: Contact; now: number; ttlMs: number; limit: number },
): Promise<boolean> {
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      if (isPostgresDb<Database>(trx)) {
        await sql`SELECT pg_advisory_xact_lock(${OPEN_LINKS_LOCK}, hashtext(${contact.email}))`.execute(trx)
      }
      const row = await trx
        .selectFrom('agreement_links')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('email', '=', contact.email)
        .where('purpose', '=', 'link')
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirstOrThrow()
      if (Number(row.count) >= limit) return false
      await insertAgreementLink(trx, { token, purpose: 'link', contact, now, ttlMs })
      return true
    }),
  )
}

// the two-number form of an advisory lock, whose keys never meet the one-number locks of the ledger and
// of admin changes: this number, and the address's hash
const OPEN_LINKS_LOCK = 0x4c49_4e4b

/**
 * Marks an e-mailed link used and gives its contact, in one conditional update: of two opens at once,
 * on any server process, only one gets it. Undefined for a used, expired or unknown link.
 */
export async function takeAgreementLink(
  db: Kysely<Database>,
  { token, now }: { token: string; now: number },
): Promise<Contact | undefined> {
  const row = await db
    .updateTable('agreement_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash(token))
    .where('purpose', '=', 'link')
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['email', 'phone_numbers'])
    .executeTakeFirst()
  return row && toContact(row)
}

/**
 * Removes an e-mailed link that is spent (opened, or past its time) and gives its contact, in one
 * conditional delete: of two requests with the same spent link, on any server process, only one gets it,
 * so a link held by a stranger can ask for at most one new link. Undefined for an unused link still
 * valid (it opens instead), a link already removed, or an unknown token.
 */
export async function takeSpentAgreementLink(
  db: Kysely<Database>,
  { token, now }: { token: string; now: number },
): Promise<Contact | undefined> {
  const row = await db
    .deleteFrom('agreement_links')
    .where('token_hash', '=', tokenHash(token))
    .where('purpose', '=', 'link')
    .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
    .returning(['email', 'phone_numbers'])
    .executeTakeFirst()
  return row && toContact(row)
}

/** Ends a download key before its time; nothing for a key already gone or unknown. */
export async function deleteDownloadKey(db: Kysely<Database>, key: string): Promise<void> {
  await db
    .deleteFrom('agreement_links')
    .where('token_hash', '=', tokenHash(key))
    .where('purpose', '=', 'download')
    .execute()
}

/** The contact of a download key still valid at `now`. */
export async function findDownloadKey(
  db: Kysely<Database>,
  { key, now }: { key: string; now: number },
): Promise<Contact | undefined> {
  const row = await db
    .selectFrom('agreement_links')
    .select(['email', 'phone_numbers'])
    .where('token_hash', '=', tokenHash(key))
    .where('purpose', '=', 'download')
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return row && toContact(row)
}

/** Removes every link and key expired by `now`: they open nothing, and they hold a contact. */
export async function pruneAgreementLinks(db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('agreement_links').where('expires_at', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}

function toContact(row: { email: string; phone_numbers: string }): Contact {
  return { email: row.email, phoneNumbers: JSON.parse(row.phone_numbers) as string[] }
}
