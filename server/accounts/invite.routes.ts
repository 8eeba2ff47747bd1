import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import type { InviteAccepted, InviteLinkInfo } from '../../src/api/staff-accounts.ts'
import { clientAddress } from '../client-address.ts'
import type { RequireTwoFactor } from '../staff/two-factor/two-factor-account.ts'
import type { Database } from '../db/database.ts'
import type { RecordAudit } from '../audit/audit-log.ts'
import { isTwoFactorRequired, issueSetupCode } from '../staff/two-factor/two-factor-account.ts'
import { acceptInvite, checkInvite } from './accept-invite.ts'
import { startSession } from '../staff/staff-session.ts'

/**
 * The pages /staff/invite and /staff/setup, for people without a session yet: what the one-time link
 * opens, and setting the password with it. The token travels in the body, never in a URL a log keeps.
 * Mounted before requireStaff; same-origin checked like every /api/staff POST (staff-auth.routes.ts).
 */
export function inviteRoutes({
  db,
  audit,
  requireTwoFactor,
}: {
  db: Kysely<Database>
  audit: RecordAudit
  requireTwoFactor: RequireTwoFactor
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '2kb' })

  router.post('/api/staff/invites/check', json, async (req, res) => {
    const body = (req.body ?? {}) as { token?: unknown }
    res.set('Cache-Control', 'no-store').json((await checkInvite(db, body.token)) satisfies InviteLinkInfo)
  })

  router.post('/api/staff/invites/accept', json, async (req, res) => {
    const { accountId, email, role, kind } = await acceptInvite(db, req.body)
    await audit({
      clientAddress: clientAddress(req),
      accountId,
      actor: email,
      action: 'invite_accepted',
      detail: kind === 'setup' ? `${email}: first admin set up` : email,
    })
    // the link vouched for the mailbox (or the server's disk) as the e-mailed code would
    if (isTwoFactorRequired(requireTwoFactor, role)) {
      // the sign-in goes on to the authenticator's set-up, which the handed-over code opens
      const answer: InviteAccepted = { twoFactorSetupCode: await issueSetupCode(db, accountId) }
      res.set('Cache-Control', 'no-store').json(answer)
      return
    }
    if (kind === 'setup') {
      // the first admin has just proved the set-up link and chosen the password: asking for it again
      // at once would prove nothing more
      await startSession(db, req, res, accountId)
      await audit({ clientAddress: clientAddress(req), accountId, actor: email, action: 'login_success' })
      res.set('Cache-Control', 'no-store').json({ signedIn: true } satisfies InviteAccepted)
      return
    }
    res.set('Cache-Control', 'no-store').json({} satisfies InviteAccepted)
  })
  return router
}
