import type { Kysely } from 'kysely'
import type { ErrorBody } from '../../../src/app-error.ts'
import type { TwoFactorSetupRequired } from '../../../src/api/staff-two-factor.ts'
import { AppError } from '../../../src/app-error.ts'
import {
  CODE_REQUIRED_MESSAGE,
  EMAIL_CODE_SENT_MESSAGE,
  INVALID_CODE_MESSAGE,
  INVALID_EMAIL_CODE_MESSAGE,
  MAIL_UNAVAILABLE_MESSAGE,
  SETUP_REQUIRED_MESSAGE,
} from '../../../src/two-factor-messages.ts'
import type { RequireTwoFactor } from './two-factor-account.ts'
import type { Database } from '../../db/database.ts'
import { requireMailer, type StaffMailer } from '../staff-mailer.ts'
import type { StaffAccountRow } from '../staff-accounts.ts'
import {
  confirmTwoFactorSetup,
  isRightSetupCode,
  isTwoFactorRequired,
  issueSetupCode,
  startTwoFactorSetup,
  useSecondFactorCode,
} from './two-factor-account.ts'
import type { TwoFactorKey } from './two-factor-key.ts'

/** What the sign-in's second step decided, once the password was right. */
export type SecondFactorResult =
  /** recoveryCodes: this sign-in turned two-factor sign-in on; show them once. */
  | { passed: true; recoveryCodes?: string[] }
  /** The 401 to answer; wrongCode: a code was given and refused (a failed sign-in to audit). */
  | { passed: false; body: ErrorBody | TwoFactorSetupRequired; wrongCode: boolean }

/**
 * The code step of POST /api/staff/login. An account with TOTP needs a current code or a recovery code;
 * any account that REQUIRE_2FA does not cover passes with its password alone. One that it covers and
 * that has no TOTP yet is sent a code by e-mail; with that code it gets a secret to set up, and its
 * first right TOTP code turns two-factor sign-in on. The e-mailed code keeps a person who has only the
 * password from tying the account to their own authenticator app before its owner does.
 */
export async function checkSecondFactor({
  db,
  account,
  code,
  emailCode,
  requireTwoFactor,
  mailer,
  address,
  twoFactorKey,
}: {
  db: Kysely<Database>
  account: StaffAccountRow
  code: string | undefined
  /** The code from the set-up e-mail, once the sign-in has asked for it. */
  emailCode: string | undefined
  requireTwoFactor: RequireTwoFactor
  mailer: StaffMailer | undefined
  /** The sign-in's client address, named in the set-up e-mail. */
  address: string
  /** Opens the stored TOTP secrets (two-factor-key.ts). */
  twoFactorKey: TwoFactorKey | undefined
}): Promise<SecondFactorResult> {
  if (account.totpSecret !== null) {
    if (code === undefined) return refused('TWO_FACTOR_REQUIRED', CODE_REQUIRED_MESSAGE)
    return (await useSecondFactorCode(db, account, code, { twoFactorKey })) ? { passed: true } : wrongCode()
  }
  if (!isTwoFactorRequired(requireTwoFactor, account.role)) return { passed: true }
  if (emailCode === undefined) {
    const sent = await requireMailer(mailer, 'two-factor set-up codes').sendSetupCode({
      account,
      code: await issueSetupCode(db, account.id),
      address,
    })
    if (!sent) throw new AppError('MAIL_UNAVAILABLE', { status: 503, message: MAIL_UNAVAILABLE_MESSAGE })
    return refused('TWO_FACTOR_EMAIL_CODE_REQUIRED', EMAIL_CODE_SENT_MESSAGE)
  }
  if (!(await isRightSetupCode(db, account.id, emailCode))) {
    return refused('INVALID_EMAIL_CODE', INVALID_EMAIL_CODE_MESSAGE)
  }
  const confirmed =
    code === undefined ? 'not-started' : await confirmTwoFactorSetup(db, account.id, { code, twoFactorKey })
  if (confirmed === 'wrong-code') return wrongCode()
  if (confirmed !== 'not-started') return { passed: true, recoveryCodes: confirmed }
  const setup = await startTwoFactorSetup(db, account, twoFactorKey)
  return {
    passed: false,
    body: { error: { code: 'TWO_FACTOR_SETUP_REQUIRED', message: SETUP_REQUIRED_MESSAGE }, ...setup },
    wrongCode: false,
  }
}

function refused(
  code: 'TWO_FACTOR_REQUIRED' | 'TWO_FACTOR_EMAIL_CODE_REQUIRED' | 'INVALID_CODE' | 'INVALID_EMAIL_CODE',
  message: string,
): SecondFactorResult {
  const isWrong = code === 'INVALID_CODE' || code === 'INVALID_EMAIL_CODE'
  return { passed: false, body: { error: { code, message } }, wrongCode: isWrong }
}

function wrongCode(): SecondFactorResult {
  return refused('INVALID_CODE', INVALID_CODE_MESSAGE)
}
