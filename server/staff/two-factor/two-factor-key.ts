import crypto from 'node:crypto'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { AppError } from '../../../src/app-error.ts'
import type { Database } from '../../db/database.ts'
import { readOrMakeKeyFile } from '../../private-files.ts'

/** The key file's name in DATA_DIR, beside evidence.key; made on the first start. */
export const TWO_FACTOR_KEY_FILE = 'two-factor.key'
const KEY_BYTES = 32
/** What marks a stored secret as sealed: a clear one is base32 (A-Z, 2-7) and never holds a colon. */
const SEALED_PREFIX = 'totp1:'

/** The key the TOTP secrets are sealed with, and its id (stored with each secret, to name a mismatch). */
export interface TwoFactorKey {
  id: string
  key: Buffer
}

/**
 * DATA_DIR/two-factor.key, written on first use with mode 0600 as evidence.key is. It is kept out of
 * the database so that a copy of the database (a backup, a read-only leak) does not hold the secrets
 * every code is made from. Without it no account with two-factor sign-in can sign in until an admin
 * resets its two-factor sign-in on the accounts page, so it is backed up apart from the database.
 */
export function loadTwoFactorKey(dataDir: string): TwoFactorKey {
  const file = path.join(dataDir, TWO_FACTOR_KEY_FILE)
  return keyOf(readOrMakeKeyFile({ dataDir, name: TWO_FACTOR_KEY_FILE, bytes: KEY_BYTES }), file)
}

/** A key given as 64 hex characters (tests make their own). */
export function keyOf(text: string, source = 'the two-factor key'): TwoFactorKey {
  const hex = text.trim()
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new Error(`${source} must be ${KEY_BYTES * 2} hex characters (${KEY_BYTES} random bytes)`)
  }
  const key = Buffer.from(hex, 'hex')
  return { id: crypto.createHash('sha256').update(key).digest('hex').slice(0, 8), key }
}

/** AES-256-GCM with a random IV: `totp1:<key id>:<iv>:<ciphertext><tag>`, base64url. */
export function sealTotpSecret({ id, key }: TwoFactorKey, secret: string): string {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return `${SEALED_PREFIX}${id}:${iv.toString('base64url')}:${sealed.toString('base64url')}`
}

export function isSealedTotpSecret(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX)
}

/**
 * The base32 secret of a stored one. A clear secret (written before secrets were sealed, and not yet
 * sealed by sealClearTotpSecrets) is taken as it is. One sealed under another key, or changed, throws a
 * 500 that says so: a code is never checked against a secret that could not be read.
 */
export function openTotpSecret(twoFactorKey: TwoFactorKey | undefined, stored: string): string {
  if (!isSealedTotpSecret(stored)) return stored
  const [id, iv, sealed] = stored.slice(SEALED_PREFIX.length).split(':')
  if (!twoFactorKey) throw keyError('the server was started without a two-factor key') // fail-closed
  if (id !== twoFactorKey.id || !iv || !sealed) {
    throw keyError(`the secret was sealed with key ${id ?? '?'}, and this server's key is ${twoFactorKey.id}`)
  }
  try {
    const data = Buffer.from(sealed, 'base64url')
    const decipher = crypto.createDecipheriv('aes-256-gcm', twoFactorKey.key, Buffer.from(iv, 'base64url'))
    decipher.setAuthTag(data.subarray(data.length - 16))
    return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    throw keyError('the sealed secret does not open with this server’s key')
  }
}

function keyError(why: string): AppError {
  return new AppError('INTERNAL_ERROR', {
    status: 500,
    message: `two-factor codes cannot be checked (${why}): an admin must restore DATA_DIR/${TWO_FACTOR_KEY_FILE} from its backup`,
  })
}

/**
 * The start-up step after migrate that seals the TOTP secrets older versions stored in clear (and
 * secrets being set up). Not a migration: migrations run without the server's settings and so cannot
 * read the key file. The prefix tells sealed from clear, so the step may run at every start, and the
 * old value in the WHERE leaves alone a secret changed meanwhile. Returns how many it sealed.
 */
export async function sealClearTotpSecrets(
  db: Kysely<Database>,
  twoFactorKey: TwoFactorKey,
): Promise<number> {
  const rows = await db
    .selectFrom('staff_accounts')
    .select(['id', 'totp_secret', 'totp_pending_secret'])
    .where((eb) =>
      eb.or([
        eb.and([eb('totp_secret', 'is not', null), eb('totp_secret', 'not like', `${SEALED_PREFIX}%`)]),
        eb.and([
          eb('totp_pending_secret', 'is not', null),
          eb('totp_pending_secret', 'not like', `${SEALED_PREFIX}%`),
        ]),
      ]),
    )
    .execute()
  let sealed = 0
  for (const row of rows) {
    for (const column of ['totp_secret', 'totp_pending_secret'] as const) {
      const clear = row[column]
      if (clear === null || isSealedTotpSecret(clear)) continue
      const result = await db
        .updateTable('staff_accounts')
        .set({ [column]: sealTotpSecret(twoFactorKey, clear) })
        .where('id', '=', row.id)
        .where(column, '=', clear)
        .executeTakeFirst()
      sealed += Number(result.numUpdatedRows)
    }
  }
  return sealed
}
