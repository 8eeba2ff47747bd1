import { sql, type Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { DAY_MS } from '../../src/durations.ts'
import type { Database } from '../db/database.ts'
import type { StaffMailer } from './staff-mailer.ts'
import { sha256Hex } from '../platform/token-hash.ts'
import { normalEmail } from './staff-accounts.ts'

/**
 * The failure that pauses sign-in first. The per-address limit (LOGIN_LIMIT) does not stop guesses
 * spread over many addresses; this counts them per account, wherever they come from.
 */
export const PAUSE_AFTER_FAILURES = 5
/** The first pause; each further failure doubles it, up to MAX_PAUSE_MS. */
export const FIRST_PAUSE_MS = 60 * 1000
export const MAX_PAUSE_MS = 60 * 60 * 1000
/** A day with no failure forgets the count: old typos do not add up to a pause. */
const FAILURES_KEPT_MS = DAY_MS
/** Rows of addresses quiet for longer are deleted, at most this often per process. */
const PRUNE_EVERY_MS = 60 * 60 * 1000
const lastPruned = new WeakMap<Kysely<Database>, number>()

/** How long sign-in pauses after the account's `failures`-th failure in a row (0 before the fifth). */
export function pauseAfter(failures: number): number {
  if (failures < PAUSE_AFTER_FAILURES) return 0
  return Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (failures - PAUSE_AFTER_FAILURES))
}

/** What the person is told while sign-in to the account is paused. */
export function pausedMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return `Too many failed sign-ins to this account. Sign-in to it is paused: please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`
}

/**
 * The seconds left while sign-in to the address is paused, else undefined. Checked before any password
 * is hashed: a right password is refused too, or a guesser would learn it by the answer. Addresses with
 * no account pause the same way, so a pause does not tell which accounts exist.
 */
export async function signInPause(
  db: Kysely<Database>,
  email: string,
  now = Date.now(),
): Promise<number | undefined> {
  const row = await db
    .selectFrom('staff_sign_in_failures')
    .select('paused_until')
    .where('email_key', '=', emailKey(email))
    .executeTakeFirst()
  const pausedUntil = row?.paused_until == null ? 0 : Number(row.paused_until)
  if (pausedUntil <= now) return undefined
  return Math.max(1, Math.ceil((pausedUntil - now) / 1000))
}

/** The 429 of a paused sign-in, with Retry-After. */
export function signInPausedError(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', {
    status: 429,
    message: pausedMessage(retryAfterSeconds),
    headers: { 'Retry-After': String(retryAfterSeconds) },
  })
}

/** Throws signInPausedError while sign-in to the address is paused. */
export async function assertSignInNotPaused(db: Kysely<Database>, email: string): Promise<void> {
  const seconds = await signInPause(db, email)
  if (seconds !== undefined) throw signInPausedError(seconds)
}

/**
 * Counts a failure (recordSignInFailure) and, when it began a pause, e-mails the account's own address
 * through the staff mailer.
 */
export async function countSignInFailure({
  db,
  email,
  account,
  mailer,
  address,
}: {
  db: Kysely<Database>
  email: string
  /** The account the address names, if any: only an account's owner is told. */
  account: { email: string; name: string; disabled: boolean } | undefined
  mailer: StaffMailer | undefined
  address: string
}): Promise<void> {
  const { failures, startedPause } = await recordSignInFailure(db, email)
  if (startedPause && account && !account.disabled) {
    await mailer?.sendSignInFailureNotice({ account, failures, address })
  }
}

/**
 * Counts a wrong password or code for the address and pauses its sign-in from the fifth failure in a
 * row on. `startedPause`: this failure began the pause, the moment to tell the account's owner (once
 * per run of failures, not per guess). The upsert is the count, so failures at once all count.
 */
export async function recordSignInFailure(
  db: Kysely<Database>,
  email: string,
  now = Date.now(),
): Promise<{ failures: number; startedPause: boolean }> {
  await pruneQuietAddresses(db, now)
  const key = emailKey(email)
  const forgotten = now - FAILURES_KEPT_MS
  const { failures } = await db
    .insertInto('staff_sign_in_failures')
    .values({ email_key: key, failures: 1, last_failure_at: now, paused_until: null })
    .onConflict((conflict) =>
      conflict.column('email_key').doUpdateSet({
        failures: sql<number>`CASE WHEN staff_sign_in_failures.last_failure_at <= ${forgotten} THEN 1 ELSE staff_sign_in_failures.failures + 1 END`,
        last_failure_at: now,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow()
  const count = Number(failures)
  const pause = pauseAfter(count)
  if (pause > 0) {
    const until = now + pause
    // a failure counted at the same moment may have set a longer pause already
    await db
      .updateTable('staff_sign_in_failures')
      .set({ paused_until: until })
      .where('email_key', '=', key)
      .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<', until)]))
      .execute()
  }
  return { failures: count, startedPause: count === PAUSE_AFTER_FAILURES }
}

/** A whole sign-in succeeded (password and any code): the count starts again. */
export async function clearSignInFailures(db: Kysely<Database>, email: string): Promise<void> {
  await db.deleteFrom('staff_sign_in_failures').where('email_key', '=', emailKey(email)).execute()
}

function emailKey(email: string): string {
  return sha256Hex(normalEmail(email))
}

async function pruneQuietAddresses(db: Kysely<Database>, now: number): Promise<void> {
  if (now - (lastPruned.get(db) ?? 0) < PRUNE_EVERY_MS) return
  lastPruned.set(db, now)
  await db
    .deleteFrom('staff_sign_in_failures')
    .where('last_failure_at', '<=', now - FAILURES_KEPT_MS)
    .where((eb) => eb.or([eb('paused_until', 'is', null), eb('paused_until', '<=', now)]))
    .execute()
}
