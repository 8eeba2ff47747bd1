import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { INVALID_PASSWORD_MESSAGE, LOGIN_RATE_LIMITED_MESSAGE } from '../../src/staff-messages.ts'
import type { StaffSession } from '../../src/api/staff.ts'
import type { RecoveryCodes } from '../../src/api/staff-two-factor.ts'
import type { RequireTwoFactor } from '../staff/two-factor/two-factor-account.ts'
import type { Database } from '../db/database.ts'
import { clientAddress } from '../client-address.ts'
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts'
import type { RecordAudit } from '../audit/audit-log.ts'
import {
  decoyPasswordHash,
  hashPassword,
  MAX_PASSWORD_LENGTH,
  needsRehash,
  verifyPassword,
} from '../staff/password-hash.ts'
import { requireStaff, sameOriginOnly, staffAccountOf } from '../staff/require-staff.ts'
import { findAccountByEmail, findAccountById, replacePasswordHash } from '../staff/staff-accounts.ts'
import { endSession, sessionAccountId, startSession } from '../staff/staff-session.ts'
import {
  clearSignInFailures,
  countSignInFailure,
  signInPause,
  signInPausedError,
} from '../staff/sign-in-backoff.ts'
import type { StaffMailer } from '../staff/staff-mailer.ts'
import { checkSecondFactor } from '../staff/two-factor/second-factor.ts'
import type { TwoFactorKey } from '../staff/two-factor/two-factor-key.ts'

export const LOGIN_LIMIT: RateLimitRule = {
  name: 'staff-login',
  limit: 10,
  windowMs: 15 * 60 * 1000,
  message: LOGIN_RATE_LIMITED_MESSAGE,
}

/**
 * POST /api/staff/login and /logout, GET /api/staff/session. E-mail and password are checked here,
 * never in the browser; an unknown e-mail costs the same scrypt as a wrong password, so the answer's
 * time does not tell which accounts exist. After the password, the second factor (two-factor/). Wrong
 * passwords and codes pause sign-in to the address typed (sign-in-backoff.ts), from any client address.
 */
export function staffAuthRoutes({
  db,
  audit,
  idleTimeoutMs,
  requireTwoFactor,
  mailer,
  twoFactorKey,
}: {
  db: Kysely<Database>
  audit: RecordAudit
  idleTimeoutMs: number
  requireTwoFactor: RequireTwoFactor
  /** Sends the set-up code of a required two-factor sign-in, and tells the owner when it is turned on; none in tests without mail. */
  mailer?: StaffMailer | undefined
  /** Opens the stored TOTP secrets (two-factor/two-factor-key.ts); left out in tests that set none up. */
  twoFactorKey?: TwoFactorKey | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  router.use('/api/staff', sameOriginOnly)

  router.post('/api/staff/login', express.json({ limit: '2kb' }), async (req, res) => {
    const address = clientAddress(req)
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, { rule: LOGIN_LIMIT, client: address })
    if (!allowed) {
      throw new AppError('RATE_LIMITED', {
        status: 429,
        message: LOGIN_LIMIT.message,
        headers: { 'Retry-After': String(retryAfterSeconds) },
      })
    }
    const body = (req.body ?? {}) as {
      email?: unknown
      password?: unknown
      app?: unknown
      code?: unknown
      emailCode?: unknown
    }
    const app = typeof body.app === 'string' ? body.app.slice(0, 40) : undefined
    const email = typeof body.email === 'string' && body.email.length <= 320 ? body.email : undefined
    const password =
      typeof body.password === 'string' && body.password.length <= MAX_PASSWORD_LENGTH
        ? body.password
        : undefined
    const account = email === undefined ? undefined : await findAccountByEmail(db, email)
    const refuseWhilePaused = async () => {
      const paused = email === undefined ? undefined : await signInPause(db, email)
      if (paused === undefined) return
      await audit({
        clientAddress: address,
        ...(account ? { accountId: account.id, actor: account.email } : {}),
        action: 'login_failure',
        ...(app ? { app } : {}),
        detail: 'sign-in paused after failures',
      })
      throw signInPausedError(paused)
    }
    // before the hash, which a paused sign-in need not cost
    await refuseWhilePaused()
    const failed = () =>
      email === undefined ? Promise.resolve() : countSignInFailure({ db, email, account, mailer, address })
    const matches =
      password !== undefined &&
      (await verifyPassword(password, account?.passwordHash ?? (await decoyPasswordHash())))
    // and after it: guesses sent at once passed the first check together, while the hashes before them
    // in the queue were counting failures
    await refuseWhilePaused()
    if (!account || !matches || account.passwordHash === null || account.disabled) {
      await audit({
        clientAddress: address,
        ...(account ? { accountId: account.id, actor: account.email } : {}),
        action: 'login_failure',
        ...(app ? { app } : {}),
        ...(account?.disabled ? { detail: 'account disabled' } : {}),
      })
      await failed()
      throw new AppError('INVALID_PASSWORD', { status: 401, message: INVALID_PASSWORD_MESSAGE })
    }
    const who = {
      clientAddress: address,
      accountId: account.id,
      actor: account.email,
      ...(app ? { app } : {}),
    }
    const secondFactor = await checkSecondFactor({
      db,
      account,
      code: codeOf(body.code),
      emailCode: codeOf(body.emailCode),
      requireTwoFactor,
      mailer,
      address,
      twoFactorKey,
    })
    if (!secondFactor.passed) {
      if (secondFactor.wrongCode) {
        const detail =
          secondFactor.body.error.code === 'INVALID_EMAIL_CODE' ? 'wrong e-mailed code' : 'wrong code'
        await audit({ ...who, action: 'login_failure', detail })
        await failed()
      }
      res.status(401).json(secondFactor.body)
      return
    }
    if (needsRehash(account.passwordHash)) {
      await replacePasswordHash(db, account.id, await hashPassword(password!))
    }
    await startSession(db, req, res, account.id)
    // only a whole sign-in starts the count again: a right password alone would let codes be guessed on
    await clearSignInFailures(db, account.email)
    await audit({ ...who, action: 'login_success' })
    if (secondFactor.recoveryCodes) {
      await audit({ ...who, action: 'two_factor_enabled' })
      await mailer?.sendTwoFactorNotice({ account, change: 'on', address })
      res.status(200).json({ recoveryCodes: secondFactor.recoveryCodes } satisfies RecoveryCodes)
      return
    }
    res.status(204).end()
  })

  // answers 204 with or without a live session: signing out of an expired one is no error
  router.post('/api/staff/logout', async (req, res) => {
    const accountId = await sessionAccountId(db, req, idleTimeoutMs)
    const account = accountId === undefined ? undefined : await findAccountById(db, accountId)
    await endSession(db, req, res)
    if (account) {
      await audit({
        clientAddress: clientAddress(req),
        accountId: account.id,
        actor: account.email,
        action: 'logout',
      })
    }
    res.status(204).end()
  })

  router.get('/api/staff/session', requireStaff(db, idleTimeoutMs), (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .json({ authenticated: true, account: staffAccountOf(res) } satisfies StaffSession)
  })
  return router
}

/** A code field of the sign-in's body: a string of at most 40 characters, else none. */
function codeOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 40 ? value : undefined
}
