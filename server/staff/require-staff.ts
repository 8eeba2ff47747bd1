import type { RequestHandler, Response } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { canExportApp, canSeeApp, type StaffAccountView } from '../../src/api/staff.ts'
import type { Database } from '../db/database.ts'
import { isSameSite } from '../public-origin.ts'
import { loadAccountView } from './staff-accounts.ts'
import { sessionAccountId } from './staff-session.ts'

/**
 * Lets a request through only with a live session of an enabled account, which later handlers read with
 * `staffAccountOf(res)`; 401 otherwise.
 */
export function requireStaff(db: Kysely<Database>, idleTimeoutMs: number): RequestHandler {
  return async (req, res, next) => {
    const accountId = await sessionAccountId(db, req, idleTimeoutMs)
    const account = accountId === undefined ? undefined : await loadAccountView(db, accountId)
    if (account) {
      res.locals.staffAccount = account
      next()
      return
    }
    next(new AppError('UNAUTHENTICATED', { status: 401, message: 'log in on the dashboard to see this' }))
  }
}

/** The signed-in account; only behind requireStaff. */
export function staffAccountOf(res: Response): StaffAccountView {
  const account = res.locals.staffAccount as StaffAccountView | undefined
  if (!account) throw new Error('staffAccountOf used on a route requireStaff does not guard')
  return account
}

/** Admin-only routes: the main admin view, the military figures, accounts, the audit log. */
export const adminOnly: RequestHandler = (_req, res, next) => {
  if (staffAccountOf(res).role === 'admin') {
    next()
    return
  }
  next(forbidden('only an admin may see this'))
}

/** Throws 403 unless the signed-in account may see the app's claims. */
export function assertCanSee(res: Response, app: string): void {
  if (!canSeeApp(staffAccountOf(res), app)) throw forbidden('your account has no access to this app')
}

/** Throws 403 unless the signed-in account may export the app's claims. */
export function assertCanExport(res: Response, app: string): void {
  assertCanSee(res, app)
  if (!canExportApp(staffAccountOf(res), app)) throw forbidden('your account may not export this app')
}

function forbidden(message: string): AppError {
  return new AppError('FORBIDDEN', { status: 403, message })
}

/**
 * Refuses a state-changing staff request sent from another site: its Origin (or Referer) must be this
 * site, PUBLIC_URL when set (a proxy may rewrite Host), else the Host it was sent to. The SameSite=Strict
 * cookie already stays home; this is the second lock.
 */
export const sameOriginOnly: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    next()
    return
  }
  if (isSameSite(req, req.get('origin') ?? req.get('referer'))) {
    next()
    return
  }
  next(
    new AppError('CROSS_SITE_REQUEST', {
      status: 403,
      message: 'this request must come from the dashboard itself',
    }),
  )
}
