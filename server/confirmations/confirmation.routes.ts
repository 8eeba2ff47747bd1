import express, { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import type { ClaimConfirmed, ClaimDisowned, LinkedClaim } from '../../src/confirmation-messages.ts'
import { signerOf } from '../agreements/signer.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../i18n/languages.ts'
import { requestLocale } from '../i18n/request-locale.ts'
import type { PublicDoor } from '../public-doors.ts'
import { confirmClaim } from './confirm-claim.ts'
import { disownClaim, linkedClaim } from './disown-claim.ts'

/**
 * POST /api/confirmations — the claimant pressed "Confirm it was you" on the page the e-mail's link
 * opened. The link itself only opens that page: mail scanners open links on their own, and a GET that
 * confirmed would let them confirm for the claimant.
 */
export function confirmationRoutes({
  db,
  languages,
  evidenceKey,
  guardPost,
}: {
  db: Kysely<Database>
  languages: Languages
  evidenceKey: Buffer
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
}): Router {
  const router = Router({ caseSensitive: true })
  router.post(
    '/api/confirmations/claim',
    guardPost('confirm'),
    express.json({ limit: '1kb' }),
    async (req, res) => {
      const locale = requestLocale(req)
      const body = req.body as { token?: unknown } | undefined
      const claim = await linkedClaim({
        db,
        forms: languages.forms(locale),
        token: body?.token,
        t: languages.t(locale),
      })
      res.set('Cache-Control', 'no-store').json(claim satisfies LinkedClaim)
    },
  )
  router.post(
    '/api/confirmations/not-me',
    guardPost('confirm'),
    express.json({ limit: '1kb' }),
    async (req, res) => {
      const body = req.body as { token?: unknown } | undefined
      const disowned = await disownClaim({
        db,
        evidenceKey,
        token: body?.token,
        claimant: signerOf(req),
        t: languages.t(requestLocale(req)),
      })
      res.set('Cache-Control', 'no-store').json(disowned satisfies ClaimDisowned)
    },
  )
  router.post(
    '/api/confirmations',
    guardPost('confirm'),
    express.json({ limit: '1kb' }),
    async (req, res) => {
      const body = req.body as { token?: unknown } | undefined
      const confirmed = await confirmClaim({
        db,
        evidenceKey,
        token: body?.token,
        confirmer: signerOf(req),
        t: languages.t(requestLocale(req)),
      })
      res.set('Cache-Control', 'no-store').json(confirmed satisfies ClaimConfirmed)
    },
  )
  return router
}
