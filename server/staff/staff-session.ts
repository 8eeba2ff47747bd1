import crypto from 'node:crypto'
import { parse as parseCookies } from 'cookie'
import type { Request, Response } from 'express'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { hasPublicUrl, isHttpsSite } from '../public-origin.ts'
import { tokenHash } from '../platform/token-hash.ts'

export const SESSION_COOKIE = 'staff_session'
/** The name over HTTPS with PUBLIC_URL set: the browser then takes it only Secure, host-only and for path / */
export const HTTPS_SESSION_COOKIE = '__Host-staff_session'
/** The absolute end of a session, however busy. */
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000
/** STAFF_IDLE_MINUTES' default: a session unused this long ends. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60 * 1000
/** last_seen_at is written at most this often, so a busy dashboard does not write on every call. */
const TOUCH_INTERVAL_MS = 60 * 1000

/** Starts a session of the account and sets its cookie: HttpOnly, SameSite=Strict, Secure when the site is HTTPS. */
export async function startSession(
  db: Kysely<Database>,
  req: Request,
  res: Response,
  accountId: number,
): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url')
  const now = Date.now()
  await db
    .insertInto('staff_sessions')
    .values({
      token_hash: tokenHash(token),
      account_id: accountId,
      created_at: now,
      expires_at: now + SESSION_TTL_MS,
      last_seen_at: now,
    })
    .execute()
  await db.deleteFrom('staff_sessions').where('expires_at', '<', now).execute()
  res.cookie(sessionCookieName(req), token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttpsSite(req),
    path: '/',
    maxAge: SESSION_TTL_MS,
  })
}

/**
 * The account whose session the request carries, or undefined: no cookie, an unknown token, or one past
 * its absolute end or idle for longer than `idleTimeoutMs` (which also removes it). A live session's
 * last use is moved forward.
 */
export async function sessionAccountId(
  db: Kysely<Database>,
  req: Request,
  idleTimeoutMs: number,
): Promise<number | undefined> {
  const token = sessionToken(req)
  if (!token) return undefined
  const hash = tokenHash(token)
  const session = await db
    .selectFrom('staff_sessions')
    .select(['account_id', 'expires_at', 'last_seen_at'])
    .where('token_hash', '=', hash)
    .executeTakeFirst()
  if (!session) return undefined
  const now = Date.now()
  const lastSeen = Number(session.last_seen_at)
  if (Number(session.expires_at) <= now || now - lastSeen >= idleTimeoutMs) {
    await db.deleteFrom('staff_sessions').where('token_hash', '=', hash).execute()
    return undefined
  }
  if (now - lastSeen >= TOUCH_INTERVAL_MS) {
    await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('token_hash', '=', hash).execute()
  }
  return Number(session.account_id)
}

export async function endSession(db: Kysely<Database>, req: Request, res: Response): Promise<void> {
  const token = sessionToken(req)
  if (token) await db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash(token)).execute()
  res.clearCookie(sessionCookieName(req), {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttpsSite(req),
  })
}

function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie
  return header ? parseCookies(header)[sessionCookieName(req)] : undefined
}

function sessionCookieName(req: Request): string {
  return hasPublicUrl(req) && isHttpsSite(req) ? HTTPS_SESSION_COOKIE : SESSION_COOKIE
}
