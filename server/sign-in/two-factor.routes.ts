import express, { Router, type Request, type Response } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '../../src/api/staff-two-factor.ts'
import { INVALID_CODE_MESSAGE } from '../../src/two-factor-messages.ts'
import type { RequireTwoFactor } from '../staff/two-factor/two-factor-account.ts'
import { clientAddress } from '../client-address.ts'
import type { Database } from '../db/database.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import type { StaffMailer } from '../staff/staff-mailer.ts'
import { staffAccountOf } from '../staff/require-staff.ts'
import { findAccountById, resetTwoFactor, type StaffAccountRow } from '../staff/staff-accounts.ts'
import { startSession } from '../staff/staff-session.ts'
import { MAX_PASSWORD_LENGTH, verifyPassword } from '../staff/password-hash.ts'
import { assertSignInNotPaused, countSignInFailure } from '../staff/sign-in-backoff.ts'
import { countUnusedRecoveryCodes } from '../staff/two-factor/recovery-codes.ts'
import {
  confirmTwoFactorSetup,
  isTwoFactorRequired,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
  useSecondFactorCode,
} from '../staff/two-factor/two-factor-account.ts'
import type { TwoFactorKey } from '../staff/two-factor/two-factor-key.ts'

/**
 * The signed-in account's own two-factor sign-in (/staff/two-factor): turn it on with a QR code and a
 * first code, make new recovery codes, turn it off when REQUIRE_2FA does not cover the account. Behind
 * requireStaff; every change needs a current code, and turning it on the current password, so a session
 * left open is not enough. Wrong passwords and codes count toward the account's pause (sign-in-backoff.ts).
 */
export function twoFactorRoutes({
  db,
  audit,
  requireTwoFactor,
  mailer,
  twoFactorKey,
}: {
  db: Kysely<Database>
  audit: RecordAudit
  requireTwoFactor: RequireTwoFactor
  /** Seals and opens the TOTP secrets (two-factor-key.ts); left out in tests that set none up. */
  twoFactorKey?: TwoFactorKey | undefined
  /** Tells the account's owner of each change; none in tests without mail. */
  mailer?: StaffMailer | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '1kb' })

  router.get('/api/staff/two-factor', async (_req, res) => {
    const account = await ownAccount(db, res)
    res.set('Cache-Control', 'no-store').json({
      enabled: account.totpSecret !== null,
      required: isTwoFactorRequired(requireTwoFactor, account.role),
      recoveryCodesLeft: await countUnusedRecoveryCodes(db, account.id),
    } satisfies TwoFactorStatus)
  })

  /** Counts a wrong password or code toward the account's pause, as sign-in does. */
  const failed = (req: Request, account: StaffAccountRow) =>
    countSignInFailure({ db, email: account.email, account, mailer, address: clientAddress(req) })

  /**
   * The account's current password, asked before a set-up starts and again at its confirmation: a
   * session alone (a browser left open, a stolen cookie) cannot tie the account to another authenticator
   * app and take its recovery codes. 403, not 401, so the page stays and shows the message.
   */
  const checkPassword = async (req: Request, res: Response, account: StaffAccountRow) => {
    const password = (req.body as { password?: unknown } | undefined)?.password
    if (typeof password !== 'string' || password === '' || password.length > MAX_PASSWORD_LENGTH) {
      throw new AppError('INVALID_PASSWORD', {
        status: 403,
        message: 'type your current password to set up two-factor sign-in',
      })
    }
    if (account.passwordHash !== null && (await verifyPassword(password, account.passwordHash))) return
    await audit({
      ...actorOf(req, res),
      action: 'login_failure',
      detail: 'wrong password at two-factor set-up',
    })
    await failed(req, account)
    throw new AppError('INVALID_PASSWORD', {
      status: 403,
      message: 'the password is not right: type the password you sign in with',
    })
  }

  router.post('/api/staff/two-factor/setup', json, async (req, res) => {
    const account = await ownAccount(db, res)
    if (account.totpSecret !== null) {
      throw badRequest('two-factor sign-in is already on: make new recovery codes or turn it off first')
    }
    await assertSignInNotPaused(db, account.email)
    await checkPassword(req, res, account)
    res
      .set('Cache-Control', 'no-store')
      .json((await startTwoFactorSetup(db, account, twoFactorKey)) satisfies TwoFactorSetup)
  })

  router.post('/api/staff/two-factor/confirm', json, async (req, res) => {
    const account = await ownAccount(db, res)
    const code = codeOf(req)
    await assertSignInNotPaused(db, account.email)
    await checkPassword(req, res, account)
    const confirmed = await confirmTwoFactorSetup(db, account.id, { code, twoFactorKey })
    if (confirmed === 'not-started') throw badRequest('start the set-up first: no QR code was shown')
    if (confirmed === 'wrong-code') {
      await failed(req, account)
      throw invalidCode()
    }
    await audit({ ...actorOf(req, res), action: 'two_factor_enabled' })
    await mailer?.sendTwoFactorNotice({ account, change: 'on', address: clientAddress(req) })
    res.set('Cache-Control', 'no-store').json({ recoveryCodes: confirmed } satisfies RecoveryCodes)
  })

  router.post('/api/staff/two-factor/recovery-codes', json, async (req, res) => {
    const account = await ownAccount(db, res)
    const code = codeOf(req)
    if (account.totpSecret === null) throw badRequest('two-factor sign-in is not on for your account')
    await assertSignInNotPaused(db, account.email)
    // a recovery code may not make new ones: whoever holds the list would keep a way in
    if (!(await useSecondFactorCode(db, account, code, { totpOnly: true, twoFactorKey }))) {
      await failed(req, account)
      throw invalidCode()
    }
    const recoveryCodes = await regenerateRecoveryCodes(db, account.id)
    await audit({ ...actorOf(req, res), action: 'recovery_codes_regenerated' })
    res.set('Cache-Control', 'no-store').json({ recoveryCodes } satisfies RecoveryCodes)
  })

  router.post('/api/staff/two-factor/disable', json, async (req, res) => {
    const account = await ownAccount(db, res)
    const code = codeOf(req)
    if (account.totpSecret === null) throw badRequest('two-factor sign-in is not on for your account')
    if (isTwoFactorRequired(requireTwoFactor, account.role)) {
      throw new AppError('FORBIDDEN', {
        status: 403,
        message:
          'your firm requires two-factor sign-in for your account (REQUIRE_2FA): it cannot be turned off',
      })
    }
    await assertSignInNotPaused(db, account.email)
    if (!(await useSecondFactorCode(db, account, code, { twoFactorKey }))) {
      await failed(req, account)
      throw invalidCode()
    }
    const who = actorOf(req, res)
    // every session ends, a stolen one too; this browser gets a new one so the person stays signed in
    await resetTwoFactor(db, account.id)
    await startSession(db, req, res, account.id)
    await audit({ ...who, action: 'two_factor_disabled' })
    await mailer?.sendTwoFactorNotice({ account, change: 'off', address: clientAddress(req) })
    res.status(204).end()
  })
  return router
}

/** The signed-in account with its secret, which the session's view leaves out. */
async function ownAccount(db: Kysely<Database>, res: Response): Promise<StaffAccountRow> {
  const account = await findAccountById(db, staffAccountOf(res).id)
  if (!account)
    throw new AppError('UNAUTHENTICATED', { status: 401, message: 'log in on the dashboard to see this' })
  return account
}

function codeOf(req: Request): string {
  const code = (req.body as { code?: unknown } | undefined)?.code
  if (typeof code !== 'string' || code.trim() === '' || code.length > 40) {
    throw badRequest('give the 6-digit code from your authenticator app as "code"')
  }
  return code
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}

/** 400, not 401: the session is fine, and a 401 would send the page back to the sign-in gate. */
function invalidCode(): AppError {
  return new AppError('INVALID_CODE', { status: 400, message: INVALID_CODE_MESSAGE })
}
