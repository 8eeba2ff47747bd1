import express, { Router, type Request, type Response } from 'express'
import type { Kysely, Transaction } from 'kysely'
import type {
  CreatedWebhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../src/api/webhooks.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { actorOf, writeAuditEntry, type AuditAction } from '../audit/audit-log.ts'
import { adminOnly, staffAccountOf } from '../staff/require-staff.ts'
import { checkWebhookUrl, detailsNeedHttps, mayReceiveDetails } from './webhook-addresses.ts'
import type { WebhookDeliveries } from './webhook-deliveries.ts'
import {
  badRequest,
  endpointRowToEndpoint,
  findEndpoint,
  listDeliveries,
  listEndpoints,
  parseChange,
  parseEvents,
  parseId,
  sendAgain,
} from './webhook-endpoints.ts'
import { forgetWebhookSubscriptions } from './webhook-events.ts'
import { webhookSecrets } from './webhook-secret.ts'

const NO_STORE = 'private, no-store'

/**
 * The admins' webhook endpoints: list, add (the answer shows the secret, once), pause or resume or
 * change, delete, and each endpoint's delivery log with "Send again". Every change is audited in the
 * transaction that makes it. Mounted after requireStaff and sameOriginOnly.
 */
export function webhookRoutes({
  db,
  evidenceKey,
  allowPrivate,
  deliveries,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  /** WEBHOOKS_ALLOW_PRIVATE: endpoints on local and private addresses are taken (tests only). */
  allowPrivate: boolean
  /** Woken by "Send again"; left out, the delivery waits for the next poll of a process that sends. */
  deliveries?: Pick<WebhookDeliveries, 'wake'> | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '16kb' })
  const secrets = webhookSecrets(evidenceKey)
  router.use('/api/staff/webhooks', adminOnly)

  /** Runs a change and its audit entry in one transaction; the subscriptions are read again after it. */
  const audited = async <T>(
    req: Request,
    res: Response,
    change: (trx: Transaction<Database>) => Promise<{ result: T; action: AuditAction; detail: string }>,
  ): Promise<T> => {
    const result = await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const done = await change(trx)
        await writeAuditEntry(trx, evidenceKey, {
          ...actorOf(req, res),
          action: done.action,
          detail: done.detail,
        })
        return done.result
      }),
    )
    forgetWebhookSubscriptions(db)
    return result
  }

  router.get('/api/staff/webhooks', async (_req, res) => {
    res
      .set('Cache-Control', NO_STORE)
      .json({ endpoints: await listEndpoints(db) } satisfies WebhookEndpointList)
  })

  router.post('/api/staff/webhooks', json, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>
    const events = parseEvents(body.events)
    if (body.includeDetails !== undefined && typeof body.includeDetails !== 'boolean') {
      throw badRequest('"includeDetails" must be true or false')
    }
    const url = await checkWebhookUrl(body.url, allowPrivate)
    if (body.includeDetails === true && !mayReceiveDetails(url, allowPrivate)) throw detailsNeedHttps()
    const { salt, secret } = secrets.make()
    const endpoint = await audited(req, res, async (trx) => {
      const row = await trx
        .insertInto('webhook_endpoints')
        .values({
          url,
          events: JSON.stringify(events),
          include_details: body.includeDetails === true ? 1 : 0,
          is_active: 1,
          secret_salt: salt,
          created_at: Date.now(),
          created_by: staffAccountOf(res).email,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      const endpoint = endpointRowToEndpoint(row)
      return { result: endpoint, action: 'webhook_created', detail: describe(endpoint) }
    })
    res
      .status(201)
      .set('Cache-Control', NO_STORE)
      .json({ endpoint, secret } satisfies CreatedWebhook)
  })

  router.patch('/api/staff/webhooks/:endpointId', json, async (req, res) => {
    const id = parseId(req.params.endpointId, 'webhook endpoint')
    const change = parseChange(req.body)
    const endpoint = await audited(req, res, async (trx) => {
      const current = await findEndpoint(trx, id)
      if (change.includeDetails === true && !mayReceiveDetails(current.url, allowPrivate)) {
        throw detailsNeedHttps()
      }
      const row = await trx
        .updateTable('webhook_endpoints')
        .set({
          ...(change.isActive === undefined ? {} : { is_active: change.isActive ? 1 : 0 }),
          ...(change.includeDetails === undefined ? {} : { include_details: change.includeDetails ? 1 : 0 }),
          ...(change.events === undefined ? {} : { events: JSON.stringify(change.events) }),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
      const endpoint = endpointRowToEndpoint(row)
      return { result: endpoint, action: 'webhook_changed', detail: describe(endpoint) }
    })
    res.set('Cache-Control', NO_STORE).json(endpoint satisfies WebhookEndpoint)
  })

  router.delete('/api/staff/webhooks/:endpointId', async (req, res) => {
    const id = parseId(req.params.endpointId, 'webhook endpoint')
    await audited(req, res, async (trx) => {
      const endpoint = endpointRowToEndpoint(await findEndpoint(trx, id))
      await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute()
      await trx.deleteFrom('webhook_endpoints').where('id', '=', id).execute()
      return { result: undefined, action: 'webhook_deleted', detail: describe(endpoint) }
    })
    res.status(204).end()
  })

  router.get('/api/staff/webhooks/:endpointId/deliveries', async (req, res) => {
    const id = parseId(req.params.endpointId, 'webhook endpoint')
    await findEndpoint(db, id)
    res
      .set('Cache-Control', NO_STORE)
      .json({ deliveries: await listDeliveries(db, id) } satisfies WebhookDeliveryList)
  })

  router.post('/api/staff/webhooks/:endpointId/deliveries/:deliveryId/send-again', async (req, res) => {
    const endpointId = parseId(req.params.endpointId, 'webhook endpoint')
    const deliveryId = parseId(req.params.deliveryId, 'delivery')
    const delivery = await audited(req, res, async (trx) => {
      const endpoint = endpointRowToEndpoint(await findEndpoint(trx, endpointId))
      const delivery = await sendAgain(trx, { endpointId, deliveryId })
      return {
        result: delivery,
        action: 'webhook_sent_again',
        detail: `delivery ${deliveryId} (${delivery.type}, event ${delivery.eventId}) to ${describe(endpoint)}`,
      }
    })
    deliveries?.wake()
    res.set('Cache-Control', NO_STORE).json(delivery satisfies WebhookDelivery)
  })

  return router
}

/**
 * How an audit entry names an endpoint: its id, its URL without the query (a receiver may take a token
 * there), its events and whether it gets claimant details.
 */
function describe(endpoint: WebhookEndpoint): string {
  const url = new URL(endpoint.url)
  return (
    `webhook ${endpoint.id} ${url.origin}${url.pathname} (${endpoint.events.join(', ')}` +
    `${endpoint.includeDetails ? '; with claimant details' : ''}${endpoint.isActive ? '' : '; paused'})`
  )
}
