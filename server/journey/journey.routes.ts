import express, { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import type { JourneyPrefill, Unsubscribed } from '../../src/api/journey.ts'
import { UNSUBSCRIBED_MESSAGE } from '../../src/api/journey.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../forms/languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import type { PublicDoor } from '../public-doors.ts'
import type { ClaimantJourney } from './claimant-journey.ts'
import { AppError } from '../../src/app-error.ts'
import { siteOrigin } from '../public-origin.ts'
import { hitRateLimit } from '../rate-limit.ts'
import { PUBLIC_RATE_LIMITED_MESSAGE } from '../../src/public-limit-messages.ts'
import { openPrefillLink } from './open-prefill-link.ts'
import { UNSUBSCRIBE_TOKEN_LIMIT } from './opt-out-limits.ts'

/**
 * The claimant's journey in the open: a Step 2 link's pre-fill, and unsubscribing from reminders (the
 * page's button, and the mail program's one-click POST of RFC 8058, which sends no Origin and a
 * form-encoded body).
 */
export function journeyRoutes({
  db,
  journey,
  languages,
  guardPost,
}: {
  db: Kysely<Database>
  journey: Pick<ClaimantJourney, 'tokens' | 'unsubscribe' | 'textReply'>
  languages: Languages
  guardPost: (door: PublicDoor) => RequestHandler
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '2kb' })

  // a forged, expired or other app's token, or a text's single-use one already used, pre-fills nothing
  // and says nothing: the form opens empty
  router.post('/api/journey/prefill', guardPost('prefill'), json, async (req, res) => {
    const { token, app } = (req.body ?? {}) as { token?: unknown; app?: unknown }
    const intakeId =
      typeof app === 'string' ? await openPrefillLink(db, { tokens: journey.tokens, token, app }) : undefined
    const intake =
      intakeId === undefined
        ? undefined
        : await db
            .selectFrom('form_submissions')
            .select(['first_name', 'last_name', 'email', 'phone'])
            .where('id', '=', intakeId)
            .executeTakeFirst()
    res.set('Cache-Control', 'no-store').json(
      (intake
        ? {
            firstName: intake.first_name,
            lastName: intake.last_name,
            email: intake.email,
            phone: intake.phone,
          }
        : {}) satisfies JourneyPrefill,
    )
  })

  const unsubscribeDoor = guardPost('unsubscribe')
  // the same answer for a good, an unknown and an already used token: it tells nobody whose it was.
  // A token the journey signed passes outside the public per-address limit (mail providers post
  // one-click unsubscribes from few addresses) under a limit of its own (opt-out-limits.ts). Past it
  // the answer is the public limit's 429 with Retry-After, which a mail provider retries and the page
  // shows as "try again in a few minutes"; the address was put on the list by the token's first use
  router.post(
    '/api/journey/unsubscribe',
    json,
    express.urlencoded({ extended: false, limit: '2kb' }),
    async (req, res, next) => {
      const body = (req.body ?? {}) as { token?: unknown }
      const token = req.query.token !== undefined ? req.query.token : body.token
      const intakeId = journey.tokens.readUnsubscribe(token)
      if (intakeId === undefined) {
        await unsubscribeDoor(req, res, next)
        return
      }
      const own = await hitRateLimit(db, { rule: UNSUBSCRIBE_TOKEN_LIMIT, client: String(intakeId) })
      if (!own.allowed) {
        throw new AppError('RATE_LIMITED', {
          status: 429,
          message: languages.t(requestLocale(req))(PUBLIC_RATE_LIMITED_MESSAGE, {
            minutes: Math.ceil(own.retryAfterSeconds / 60),
          }),
          headers: { 'Retry-After': String(own.retryAfterSeconds) },
        })
      }
      next()
    },
    async (req, res) => {
      const body = (req.body ?? {}) as { token?: unknown }
      const oneClick = req.query.token !== undefined
      await journey.unsubscribe(oneClick ? req.query.token : body.token, oneClick ? 'one-click' : 'link')
      res
        .set('Cache-Control', 'no-store')
        .json({ message: languages.t(requestLocale(req))(UNSUBSCRIBED_MESSAGE) } satisfies Unsubscribed)
    },
  )
  // a reply to a text reminder, posted by the SMS provider (signed; see sms.ts): STOP, START or else.
  // Outside the public per-address limit: the provider posts every claimant's reply from few addresses,
  // and its signature is the bound (a forged one changes nothing), with a limit per phone number
  // (opt-out-limits.ts); a reply past it is answered as an ignored one, so the provider does not retry
  router.post('/api/journey/sms', express.urlencoded({ extended: false, limit: '8kb' }), async (req, res) => {
    const fields = Object.fromEntries(
      Object.entries((req.body ?? {}) as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    )
    const answer = await journey.textReply({
      // the address the provider was given, which its signature covers: PUBLIC_URL's in production
      url: `${siteOrigin(req)}${req.originalUrl}`,
      fields,
      signature: req.get('x-twilio-signature'),
    })
    if (answer === 'unsigned') {
      throw new AppError('FORBIDDEN', {
        status: 403,
        message: "this address takes only the SMS provider's signed replies",
      })
    }
    // an empty TwiML answer: the provider sends its own confirmation of STOP and START
    res.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response></Response>')
  })
  return router
}
