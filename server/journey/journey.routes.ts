import express, { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import type { JourneyPrefill, Unsubscribed } from '../../src/api/journey.ts'
import { UNSUBSCRIBED_MESSAGE } from '../../src/api/journey.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../i18n/languages.ts'
import { requestLocale } from '../i18n/request-locale.ts'
import type { PublicDoor } from '../public-doors.ts'
import type { ClaimantJourney } from './claimant-journey.ts'
import { AppError } from '../../src/app-error.ts'
import { siteOrigin } from '../public-origin.ts'

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

  // a forged, expired or other app's token pre-fills nothing and says nothing: the form opens empty
  router.post('/api/journey/prefill', guardPost('prefill'), json, async (req, res) => {
    const { token, app } = (req.body ?? {}) as { token?: unknown; app?: unknown }
    const intakeId = typeof app === 'string' ? journey.tokens.readPrefill(token, app) : undefined
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
  // A token the journey signed is its own bound and passes outside the public per-address limit: mail
  // providers post one-click unsubscribes from few addresses, and an opt-out must never be refused
  router.post(
    '/api/journey/unsubscribe',
    json,
    express.urlencoded({ extended: false, limit: '2kb' }),
    async (req, res, next) => {
      const body = (req.body ?? {}) as { token?: unknown }
      const token = req.query.token !== undefined ? req.query.token : body.token
      if (journey.tokens.readUnsubscribe(token) !== undefined) {
        next()
        return
      }
      await unsubscribeDoor(req, res, next)
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
  // and its signature is the bound (a forged one changes nothing)
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
