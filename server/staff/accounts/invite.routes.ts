import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import type { InviteLinkInfo } from '../../../src/api/staff-accounts.ts'
import { clientAddress } from '../../client-address.ts'
import type { Database } from '../../db/database.ts'
import type { RecordAudit } from '../audit-log.ts'
import { acceptInvite, checkInvite } from './accept-invite.ts'

/**
 * The pages /staff/invite and /staff/setup, for people without a session yet: what the one-time link
 * opens, and setting the password with it. The token travels in the body, never in a URL a log keeps.
 * Mounted before requireStaff; same-origin checked like every /api/staff POST (staff-auth.routes.ts).
 */
export function inviteRoutes({ db, audit }: { db: Kysely<Database>; audit: RecordAudit }): Router {
  const router = Router()
  const json = express.json({ limit: '2kb' })

  router.post('/api/staff/invites/check', json, async (req, res) => {
    const body = (req.body ?? {}) as { token?: unknown }
    res.set('Cache-Control', 'no-store').json((await checkInvite(db, body.token)) satisfies InviteLinkInfo)
  })

  router.post('/api/staff/invites/accept', json, async (req, res) => {
    const { accountId, email, kind } = await acceptInvite(db, req.body)
    await audit({
      clientAddress: clientAddress(req),
      accountId,
      actor: email,
      action: 'invite_accepted',
      detail: kind === 'setup' ? `${email}: first admin set up` : email,
    })
    res.status(204).end()
  })
  return router
}
