import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import { INVALID_PASSWORD_MESSAGE, LOGIN_RATE_LIMITED_MESSAGE } from '../../src/staff-messages.ts'
import type { Database } from '../db/database.ts'
import { clientAddress } from '../client-address.ts'
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts'
import { checkAdminPassword } from './admin-password.ts'
import type { RecordAudit } from './audit-log.ts'
import { requireStaff, sameOriginOnly } from './require-staff.ts'
import { endSession, startSession } from './staff-session.ts'
import type { StaffSession } from '../../src/api/staff.ts'

export const LOGIN_LIMIT: RateLimitRule = {
  name: 'staff-login',
  limit: 10,
  windowMs: 15 * 60 * 1000,
  message: LOGIN_RATE_LIMITED_MESSAGE,
}

/** POST /api/staff/login and /logout, GET /api/staff/session. The password is checked here, never in the browser. */
export function staffAuthRoutes({ db, audit }: { db: Kysely<Database>; audit: RecordAudit }): Router {
  const router = Router()
  router.use('/api/staff', sameOriginOnly)

  router.post('/api/staff/login', express.json({ limit: '2kb' }), async (req, res) => {
    const address = clientAddress(req)
    const { allowed, retryAfterSeconds } = await hitRateLimit(db, {
      rule: LOGIN_LIMIT,
      client: address,
    })
    if (!allowed) {
      throw new AppError('RATE_LIMITED', {
        status: 429,
        message: LOGIN_LIMIT.message,
        headers: { 'Retry-After': String(retryAfterSeconds) },
      })
    }
    const password = (req.body as { password?: unknown } | undefined)?.password
    const app = typeof req.body?.app === 'string' ? String(req.body.app).slice(0, 40) : undefined
    if (typeof password !== 'string' || !(await checkAdminPassword(db, password))) {
      await audit({ clientAddress: address, action: 'login_failure', ...(app ? { app } : {}) })
      throw new AppError('INVALID_PASSWORD', { status: 401, message: INVALID_PASSWORD_MESSAGE })
    }
    await startSession(db, req, res)
    await audit({ clientAddress: address, action: 'login_success', ...(app ? { app } : {}) })
    res.status(204).end()
  })

  router.post('/api/staff/logout', async (req, res) => {
    await endSession(db, req, res)
    await audit({ clientAddress: clientAddress(req), action: 'logout' })
    res.status(204).end()
  })

  router.get('/api/staff/session', requireStaff(db), (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ authenticated: true } satisfies StaffSession)
  })
  return router
}
