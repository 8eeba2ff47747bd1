import type { RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { isSameSite } from '../public-origin.ts'
import { hasValidSession } from './staff-session.ts'

/** Lets a request through only with a valid staff session; 401 otherwise. */
export function requireStaff(db: Kysely<Database>): RequestHandler {
  return async (req, _res, next) => {
    if (await hasValidSession(db, req)) {
      next()
      return
    }
    next(new AppError('UNAUTHENTICATED', { status: 401, message: 'log in on the dashboard to see this' }))
  }
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
