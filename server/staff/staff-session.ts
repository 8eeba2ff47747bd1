import crypto from 'node:crypto'
import { parse as parseCookies } from 'cookie'
import type { Request, Response } from 'express'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { hasPublicUrl, isHttpsSite } from '../public-origin.ts'

export const SESSION_COOKIE = 'staff_session'
/** The name over HTTPS with PUBLIC_URL set: the browser then takes it only Secure, host-only and for path / */
export const HTTPS_SESSION_COOKIE = '__Host-staff_session'
export const SESSION_TTL_MS = 8 * 60 * 60 * 1000

function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex')
}

/** Starts a session and sets its cookie: HttpOnly, SameSite=Strict, Secure when the site is HTTPS. */
export async function startSession(db: Kysely<Database>, req: Request, res: Response): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url')
  const now = Date.now()
  await db
    .insertInto('staff_sessions')
    .values({ token_hash: hashToken(token), created_at: now, expires_at: now + SESSION_TTL_MS })
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

/** Whether the request carries an unexpired session; anything unreadable counts as none. */
export async function hasValidSession(db: Kysely<Database>, req: Request): Promise<boolean> {
  const token = sessionToken(req)
  if (!token) return false
  const session = await db
    .selectFrom('staff_sessions')
    .select('expires_at')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst()
  return session !== undefined && Number(session.expires_at) > Date.now()
}

export async function endSession(db: Kysely<Database>, req: Request, res: Response): Promise<void> {
  const token = sessionToken(req)
  if (token) await db.deleteFrom('staff_sessions').where('token_hash', '=', hashToken(token)).execute()
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
