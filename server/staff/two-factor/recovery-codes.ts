import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../../db/database.ts'

type Db = Kysely<Database> | Transaction<Database>

export const RECOVERY_CODE_COUNT = 10
/** No 0/o, 1/l/i: a code copied from paper is read back right. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'
const CODE_LENGTH = 10

/** Ten new codes for the account in place of all its old ones; only their SHA-256 is kept. */
export async function replaceRecoveryCodes(trx: Transaction<Database>, accountId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode)
  await trx.deleteFrom('staff_recovery_codes').where('account_id', '=', accountId).execute()
  await trx
    .insertInto('staff_recovery_codes')
    .values(
      codes.map((code) => ({ account_id: accountId, code_hash: hashRecoveryCode(code), used_at: null })),
    )
    .execute()
  return codes
}

/**
 * Spends one unused recovery code of the account: true when it was one. The update is the check, so
 * two requests with the same code cannot both pass.
 */
export async function useRecoveryCode(db: Db, accountId: number, code: string): Promise<boolean> {
  const result = await db
    .updateTable('staff_recovery_codes')
    .set({ used_at: Date.now() })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', hashRecoveryCode(code))
    .where('used_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

export async function countUnusedRecoveryCodes(db: Db, accountId: number): Promise<number> {
  const { count } = await db
    .selectFrom('staff_recovery_codes')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** Shown as xxxxx-xxxxx; typed with or without the dash, in any case. */
function newRecoveryCode(): string {
  const characters = Array.from({ length: CODE_LENGTH }, () => ALPHABET[crypto.randomInt(ALPHABET.length)])
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`
}

function hashRecoveryCode(code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]/g, '')
  return crypto.createHash('sha256').update(normal).digest('hex')
}
