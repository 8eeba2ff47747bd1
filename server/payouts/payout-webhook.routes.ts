import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import { applyPayoutEvent } from './apply-payout-event.ts'
import type { PayPalApi } from './providers/paypal-api.ts'
import { parsePayPalPayoutEvent, verifyPayPalWebhook } from './providers/paypal-webhook.ts'

/** A payout item event is a few kilobytes; anything much larger is not PayPal's. */
const MAX_WEBHOOK_BYTES = '64kb'

/**
 * POST /api/payouts/paypal/webhook: PayPal's payout item events. PayPal posts it, so it has no staff
 * session and no Origin to check; what vouches for it is PayPal's own verify-webhook-signature, asked
 * with the body exactly as it came (401 when PayPal says it did not send it). An event is applied once;
 * one about an item we do not have, or of a type we do not act on, is answered 200 so PayPal stops.
 */
export function payoutWebhookRoutes({
  db,
  evidenceKey,
  paypal,
  sender,
  logger,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  /** PayPal's API and PAYPAL_WEBHOOK_ID; unset, every delivery is refused (503). */
  paypal: { api: PayPalApi; webhookId: string | undefined } | undefined
  /** The send job, woken when a failed item's fallback check is queued. */
  sender: { wake(): void }
  logger: Logger
}): Router {
  const router = Router({ caseSensitive: true })
  const raw = express.raw({ type: () => true, limit: MAX_WEBHOOK_BYTES })
  router.post('/api/payouts/paypal/webhook', raw, async (req, res) => {
    if (!paypal?.webhookId) {
      throw new AppError('BUSY', {
        status: 503,
        message:
          'paypal webhooks are not set up: set PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID',
      })
    }
    const rawBody = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : ''
    const isGenuine = await verifyPayPalWebhook({
      api: paypal.api,
      webhookId: paypal.webhookId,
      headers: req.headers,
      rawBody,
    })
    if (!isGenuine) {
      throw new AppError('UNAUTHENTICATED', {
        status: 401,
        message: 'the webhook signature is not one paypal made for this webhook',
      })
    }
    const event = parsePayPalPayoutEvent(JSON.parse(rawBody))
    if (event) {
      const applied = await applyPayoutEvent({ db, evidenceKey, event })
      if (applied.outcome === 'not-sent-yet') {
        // PayPal delivers a webhook again when it is not answered 2xx (up to 25 times over 3 days)
        res
          .status(503)
          .set('Retry-After', '10')
          .json({
            error: {
              code: 'NOT_SENT_YET',
              message: 'the payout item is still being sent: deliver the event again',
            },
          })
        return
      }
      if (applied.outcome === 'unknown-item') {
        logger.warn({ eventType: event.eventType }, 'paypal event for no payout item of ours')
      }
      if (applied.outcome === 'moved' && applied.fallbackItemId !== undefined) sender.wake()
    }
    res.status(200).json({ received: true })
  })
  return router
}
