import type { Request, Response } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { clientAddress } from '../client-address.ts'
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts'
import { MAX_PASSWORD_LENGTH, passwordProblem, verifyPassword } from '../staff/password-hash.ts'
import { staffAccountOf } from '../staff/require-staff.ts'
import { assertSignInNotPaused, countSignInFailure } from '../staff/sign-in-backoff.ts'
import { findAccountById, setPassword } from '../staff/staff-accounts.ts'
import { startSession } from '../staff/staff-session.ts'
import type { RecordChange } from './manage-accounts.ts'
import type { StaffMailer } from '../staff/staff-mailer.ts'

/** A stolen session must not try current passwords faster than the sign-in page allows. */
const PASSWORD_CHANGE_LIMIT: RateLimitRule = {
  name: 'staff-password-change',
  limit: 10,
  windowMs: 15 * 60 * 1000,
  message: 'too many password changes from this address: wait 15 minutes and try again',
}

/**
 * The signed-in person's new password, given the current one. Every session of the account ends (a
 * browser someone else holds among them) and this browser gets a fresh one.
 */
export async function changeOwnPassword({
  db,
  req,
  res,
  body,
  record,
  mailer,
}: {
  db: Kysely<Database>
  req: Request
  res: Response
  body: unknown
  record: RecordChange
  mailer: StaffMailer | undefined
}): Promise<void> {
  const { currentPassword, newPassword } = (body ?? {}) as Record<string, unknown>
  const { allowed, retryAfterSeconds } = await hitRateLimit(db, {
    rule: PASSWORD_CHANGE_LIMIT,
    client: clientAddress(req),
  })
  if (!allowed) {
    throw new AppError('RATE_LIMITED', {
      status: 429,
      message: PASSWORD_CHANGE_LIMIT.message,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    })
  }
  const account = await findAccountById(db, staffAccountOf(res).id)
  // a stolen session guessing the password counts toward the account's pause like the sign-in page
  if (account) await assertSignInNotPaused(db, account.email)
  const isCurrent =
    typeof currentPassword === 'string' &&
    currentPassword.length <= MAX_PASSWORD_LENGTH &&
    account?.passwordHash != null &&
    (await verifyPassword(currentPassword, account.passwordHash))
  // 400, not 401: the session is fine, only the field is wrong
  if (!account || !isCurrent) {
    if (account) {
      await countSignInFailure({ db, email: account.email, account, mailer, address: clientAddress(req) })
    }
    throw new AppError('INVALID_PASSWORD', { status: 400, message: 'the current password is not right' })
  }
  const problem = passwordProblem(newPassword)
  if (problem) throw new AppError('BAD_REQUEST', { status: 400, message: problem })
  await setPassword(db, account.id, newPassword as string)
  await startSession(db, req, res, account.id)
  await record('password_changed', account.email)
}
