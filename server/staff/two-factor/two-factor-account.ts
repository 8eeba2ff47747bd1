import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { TwoFactorSetup } from '../../../src/api/staff-two-factor.ts'
import type { Database } from '../../db/database.ts'
import { sha256Hex } from '../../platform/token-hash.ts'
import type { StaffAccountRow } from '../staff-accounts.ts'
import { replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.ts'
import { isTotpCode, newTotpSecret, totpCodeStep, totpSetup } from './totp.ts'
import { openTotpSecret, sealTotpSecret, type TwoFactorKey } from './two-factor-key.ts'

/** Whose staff accounts must use two-factor sign-in (REQUIRE_2FA). */
export type RequireTwoFactor = 'all' | 'admins' | 'none'

/** Whether REQUIRE_2FA makes the account use two-factor sign-in. */
export function isTwoFactorRequired(
  requireTwoFactor: RequireTwoFactor,
  role: StaffAccountRow['role'],
): boolean {
  return requireTwoFactor === 'all' || (requireTwoFactor === 'admins' && role === 'admin')
}

/** How long an e-mailed set-up code works. */
export const SETUP_CODE_TTL_MS = 30 * 60 * 1000

/**
 * A new 8-digit code for the account's own mailbox, in place of any earlier one: the sign-in shows the QR
 * code only to whoever gives it with the password (checkSecondFactor). Only its SHA-256 is kept.
 */
export async function issueSetupCode(db: Kysely<Database>, accountId: number): Promise<string> {
  const code = String(crypto.randomInt(0, 100_000_000)).padStart(8, '0')
  await db
    .updateTable('staff_accounts')
    .set({
      totp_setup_code_hash: sha256Hex(code),
      totp_setup_code_expires_at: Date.now() + SETUP_CODE_TTL_MS,
    })
    .where('id', '=', accountId)
    .execute()
  return code
}

/**
 * Whether the code is the account's latest e-mailed set-up code and still works. A wrong one is a failed
 * sign-in: the caller counts it toward the account's pause (sign-in-backoff.ts), as every wrong code.
 */
export async function isRightSetupCode(
  db: Kysely<Database>,
  accountId: number,
  code: string,
): Promise<boolean> {
  // the hash in the WHERE, as for recovery codes: a code that is not the latest, or is past its time, finds no row
  const match = await db
    .selectFrom('staff_accounts')
    .select('id')
    .where('id', '=', accountId)
    .where('totp_setup_code_hash', '=', sha256Hex(normalCode(code)))
    .where('totp_setup_code_expires_at', '>', Date.now())
    .executeTakeFirst()
  return match !== undefined
}

/**
 * A fresh secret waiting for its first code, in place of any earlier one: a secret shown once to
 * whoever knew the password is never the one the account ends up with unless they confirm it.
 */
export async function startTwoFactorSetup(
  db: Kysely<Database>,
  account: Pick<StaffAccountRow, 'id' | 'email'>,
  twoFactorKey: TwoFactorKey | undefined,
): Promise<TwoFactorSetup> {
  if (!twoFactorKey) throw new Error('createApp was given no twoFactorKey: no secret can be stored')
  const secret = newTotpSecret()
  await db
    .updateTable('staff_accounts')
    .set({ totp_pending_secret: sealTotpSecret(twoFactorKey, secret) })
    .where('id', '=', account.id)
    .execute()
  return totpSetup(secret, account.email)
}

/**
 * Turns two-factor sign-in on when the code is right for the secret being set up, and gives the ten
 * recovery codes (to show once). 'not-started': there is no secret being set up.
 */
export async function confirmTwoFactorSetup(
  db: Kysely<Database>,
  accountId: number,
  { code, twoFactorKey }: { code: string; twoFactorKey: TwoFactorKey | undefined },
): Promise<string[] | 'wrong-code' | 'not-started'> {
  // `secret` stays sealed: it moves to totp_secret as it is stored
  const { totp_pending_secret: secret } = await db
    .selectFrom('staff_accounts')
    .select('totp_pending_secret')
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow()
  if (secret === null) return 'not-started'
  const step = isTotpCode(normalCode(code))
    ? totpCodeStep(openTotpSecret(twoFactorKey, secret), normalCode(code))
    : undefined
  if (step === undefined) return 'wrong-code'
  return db.transaction().execute(async (trx) => {
    // the pending secret in the WHERE: a set-up restarted meanwhile is not turned on with the old code
    const result = await trx
      .updateTable('staff_accounts')
      .set({
        totp_secret: secret,
        totp_pending_secret: null,
        totp_last_step: step,
        totp_setup_code_hash: null,
        totp_setup_code_expires_at: null,
      })
      .where('id', '=', accountId)
      .where('totp_pending_secret', '=', secret)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) return 'wrong-code' as const
    return replaceRecoveryCodes(trx, accountId)
  })
}

/**
 * Spends a second-factor code of an account with two-factor sign-in on: a current TOTP code not used
 * before, or (unless `totpOnly`) an unused recovery code. False for anything else.
 */
export async function useSecondFactorCode(
  db: Kysely<Database>,
  account: Pick<StaffAccountRow, 'id' | 'totpSecret'>,
  code: string,
  { totpOnly = false, twoFactorKey }: { totpOnly?: boolean; twoFactorKey: TwoFactorKey | undefined },
): Promise<boolean> {
  if (account.totpSecret === null) return false // fail-closed
  const normal = normalCode(code)
  if (isTotpCode(normal)) {
    return useTotpCode(db, account.id, openTotpSecret(twoFactorKey, account.totpSecret), normal)
  }
  return !totpOnly && useRecoveryCode(db, account.id, normal)
}

/** Ten new recovery codes in place of the old ones. */
export async function regenerateRecoveryCodes(db: Kysely<Database>, accountId: number): Promise<string[]> {
  return db.transaction().execute((trx) => replaceRecoveryCodes(trx, accountId))
}

/**
 * A right code whose time step is later than the last one accepted: the update is the check, so a code
 * is good once even when two requests carry it at the same moment.
 */
async function useTotpCode(
  db: Kysely<Database>,
  accountId: number,
  secret: string,
  code: string,
): Promise<boolean> {
  const step = totpCodeStep(secret, code)
  if (step === undefined) return false
  const result = await db
    .updateTable('staff_accounts')
    .set({ totp_last_step: step })
    .where('id', '=', accountId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Codes as people type them: spaces around and inside left out. */
function normalCode(code: string): string {
  return code.replace(/\s/g, '')
}
