import express, { Router, type Request, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import type { Confirmed, Disowned, DisownUndone, LinkedRecord } from '../../src/confirmation-messages.ts'
import { signerOf } from '../platform/signer.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../forms/languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import type { PublicDoor } from '../public-doors.ts'
import { confirmByLink } from './confirm-by-link.ts'
import { disownByLink, linkedRecord } from './disown-by-link.ts'
import { undoDisownByLink } from './undo-disown.ts'

/**
 * The page a link opens (from a Step 2 copy, or from the e-mail after the main form) asks what it is for
 * (POST /api/confirmations/claim), then the claimant presses "Confirm it was you" (POST /api/confirmations) or "This wasn't me" (POST
 * /api/confirmations/not-me), which they can take back within a day (POST /api/confirmations/undo-not-me). The link itself only opens that page: mail scanners open links on their
 * own, and a GET that answered would let them answer for the claimant.
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
  /** A POST of the link's token (the page's JSON body), answered with what `answer` gives, never cached. */
  const byToken = <T>(path: string, answer: (token: unknown, req: Request) => Promise<T>) =>
    router.post(path, guardPost('confirm'), express.json({ limit: '1kb' }), async (req, res) => {
      const token = (req.body as { token?: unknown } | undefined)?.token
      res.set('Cache-Control', 'no-store').json(await answer(token, req))
    })
  // what the link is for, so the page can say it before anything is pressed
  byToken('/api/confirmations/claim', (token, req): Promise<LinkedRecord> => {
    const locale = requestLocale(req)
    return linkedRecord({ db, forms: languages.forms(locale), token, t: languages.t(locale) })
  })
  byToken('/api/confirmations/not-me', (token, req): Promise<Disowned> =>
    disownByLink({ db, evidenceKey, token, claimant: signerOf(req), t: languages.t(requestLocale(req)) }),
  )
  // "This wasn't me" pressed by mistake, taken back within the day
  byToken('/api/confirmations/undo-not-me', (token, req): Promise<DisownUndone> =>
    undoDisownByLink({ db, evidenceKey, token, claimant: signerOf(req), t: languages.t(requestLocale(req)) }),
  )
  byToken('/api/confirmations', (token, req): Promise<Confirmed> =>
    confirmByLink({ db, evidenceKey, token, confirmer: signerOf(req), t: languages.t(requestLocale(req)) }),
  )
  return router
}
