import type { Kysely } from 'kysely'
import type { ErrorBody } from '../../../src/app-error.ts'
import type { TwoFactorSetupRequired } from '../../../src/api/staff-two-factor.ts'
import {
  CODE_REQUIRED_MESSAGE,
  INVALID_CODE_MESSAGE,
  SETUP_REQUIRED_MESSAGE,
} from '../../../src/two-factor-messages.ts'
import type { RequireTwoFactor } from '../../config.ts'
import type { Database } from '../../db/database.ts'
import type { StaffAccountRow } from '../staff-accounts.ts'
import {
  confirmTwoFactorSetup,
  isTwoFactorRequired,
  startTwoFactorSetup,
  useSecondFactorCode,
} from './two-factor-account.ts'

/** What the sign-in's second step decided, once the password was right. */
export type SecondFactorResult =
  /** recoveryCodes: this sign-in turned two-factor sign-in on; show them once. */
  | { passed: true; recoveryCodes?: string[] }
  /** The 401 to answer; wrongCode: a code was given and refused (a failed sign-in to audit). */
  | { passed: false; body: ErrorBody | TwoFactorSetupRequired; wrongCode: boolean }

/**
 * The code step of POST /api/staff/login. An account with TOTP needs a current code or a recovery code;
 * one that REQUIRE_2FA covers and that has none yet gets a secret to set up, and its first right code
 * turns two-factor sign-in on; any other account passes with its password alone.
 */
export async function checkSecondFactor({
  db,
  account,
  code,
  requireTwoFactor,
}: {
  db: Kysely<Database>
  account: StaffAccountRow
  code: string | undefined
  requireTwoFactor: RequireTwoFactor
}): Promise<SecondFactorResult> {
  if (account.totpSecret !== null) {
    if (code === undefined) return refused('TWO_FACTOR_REQUIRED', CODE_REQUIRED_MESSAGE)
    return (await useSecondFactorCode(db, account, code)) ? { passed: true } : wrongCode()
  }
  if (!isTwoFactorRequired(requireTwoFactor, account.role)) return { passed: true }
  const confirmed = code === undefined ? 'not-started' : await confirmTwoFactorSetup(db, account.id, code)
  if (confirmed === 'wrong-code') return wrongCode()
  if (confirmed !== 'not-started') return { passed: true, recoveryCodes: confirmed }
  const setup = await startTwoFactorSetup(db, account)
  return {
    passed: false,
    body: { error: { code: 'TWO_FACTOR_SETUP_REQUIRED', message: SETUP_REQUIRED_MESSAGE }, ...setup },
    wrongCode: false,
  }
}

function refused(code: 'TWO_FACTOR_REQUIRED' | 'INVALID_CODE', message: string): SecondFactorResult {
  return { passed: false, body: { error: { code, message } }, wrongCode: code === 'INVALID_CODE' }
}

function wrongCode(): SecondFactorResult {
  return refused('INVALID_CODE', INVALID_CODE_MESSAGE)
}
