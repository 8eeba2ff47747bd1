import crypto from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { backgroundLoop } from '../jobs/background-loop.ts'
import type { Database, WebhookDeliveriesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { errorCode, type Logger } from '../logger.ts'
import type { RequestActivity } from '../request-activity.ts'
import { listenForWebhookEvents } from './webhook-events.ts'
import { postWebhook, type PostOutcome } from './post-webhook.ts'
import { webhookSecrets, webhookSignature } from './webhook-secret.ts'
import { mayReceiveDetails } from './webhook-addresses.ts'

/** A delivery refused before sending, with the reason its log shows. */
class NotSent extends Error {}

/** Each attempt is cut off after this long. */
export const DEFAULT_TIMEOUT_MS = 10_000
/** After the nth failed attempt the next waits RETRY_DELAYS_MS[n - 1] (the last one again after those). */
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000]
/** Longer than an attempt can take: a process that died while sending hands the delivery on after it. */
const LEASE_MS = 60_000
/** Deliveries posted at once: one receiver that hangs does not hold up the others. */
const BATCH = 8
/** Delivered and failed deliveries are kept this long in the log. */
const KEEP_MS = 30 * 24 * 3600_000
const PRUNE_EVERY_MS = 3600_000

type DeliveryRow = Selectable<WebhookDeliveriesTable>

/**
 * Sends the queued webhook deliveries: each one claimed under a lease by a conditional update, so two
 * server processes never post one twice, then POSTed signed (Webhook-Id, Webhook-Timestamp,
 * Webhook-Signature); a 2xx answer delivers it, anything else is retried with back-off until a day after
 * its event (or its "Send again"), then it is failed. A paused endpoint's deliveries wait.
 */
export interface WebhookDeliveries {
  /** An event was queued, or a delivery sent again: look now. */
  wake(): void
  /** Sends what is due at `now` (tests move the clock), returning when nothing more is. */
  runDue(now?: number): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

export function createWebhookDeliveries({
  db,
  evidenceKey,
  allowPrivate,
  logger,
  requests,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  pollMs = 5_000,
  wakeOnEvents = true,
}: {
  db: Kysely<Database>
  /** The endpoints' secrets are derived from it (webhook-secret.ts). */
  evidenceKey: Buffer
  /** WEBHOOKS_ALLOW_PRIVATE: deliveries may reach local and private addresses (tests only). */
  allowPrivate: boolean
  logger: Logger
  requests?: RequestActivity | undefined
  timeoutMs?: number
  pollMs?: number
  /** false (tests): an event queued does not start the sender; runDue does. */
  wakeOnEvents?: boolean
}): WebhookDeliveries {
  const owner = crypto.randomUUID()
  const leaseMs = Math.max(LEASE_MS, 2 * timeoutMs)
  const secrets = webhookSecrets(evidenceKey)
  let prunedAt = 0

  const runDue = async (at?: number) => {
    if ((at ?? Date.now()) - prunedAt >= PRUNE_EVERY_MS) await prune(at ?? Date.now())
    for (;;) {
      if (loop.isStopped()) return
      // an event queued inside a transaction wakes the loop before its commit: by the quiet moment
      // after the wake, it has committed
      await loop.quietMoment()
      // the clock read again each round: a lease taken at a time long past would be over already
      const now = at ?? Date.now()
      const taken = await take(now)
      if (taken.length === 0) return
      await Promise.all(taken.map((delivery) => attempt(delivery, now)))
    }
  }

  /** The log's old entries go, and any delivery whose endpoint was deleted as its event was queued. */
  const prune = async (now: number) => {
    prunedAt = now
    await retryWhileLocked(() =>
      db
        .deleteFrom('webhook_deliveries')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '!=', 'pending'), eb('created_at', '<', now - KEEP_MS)]),
            eb('endpoint_id', 'not in', eb.selectFrom('webhook_endpoints').select('id')),
          ]),
        )
        .execute(),
    )
  }

  /** Up to BATCH deliveries due at `now` of active endpoints, each taken by this process under a lease. */
  const take = async (now: number): Promise<DeliveryRow[]> => {
    const due = await db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
      .select('webhook_deliveries.id')
      .where('webhook_deliveries.status', '=', 'pending')
      .where('webhook_deliveries.due_at', '<=', now)
      .where('webhook_endpoints.is_active', '=', 1)
      .where((eb) =>
        eb.or([
          eb('webhook_deliveries.lease_until', 'is', null),
          eb('webhook_deliveries.lease_until', '<', now),
        ]),
      )
      .orderBy('webhook_deliveries.due_at')
      .limit(BATCH)
      .execute()
    const taken: DeliveryRow[] = []
    for (const { id } of due) {
      const row = await retryWhileLocked(() =>
        db
          .updateTable('webhook_deliveries')
          .set({ lease_owner: owner, lease_until: now + leaseMs })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
          .returningAll()
          .executeTakeFirst(),
      )
      // another process took it first
      if (row) taken.push(row)
    }
    return taken
  }

  const attempt = async (delivery: DeliveryRow, now: number) => {
    const endpoint = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', delivery.endpoint_id)
      .executeTakeFirst()
    if (!endpoint) {
      // deleted since it was taken
      await db.deleteFrom('webhook_deliveries').where('id', '=', delivery.id).execute()
      return
    }
    let outcome: PostOutcome
    try {
      // an http:// endpoint with details ticked (written to the database by other means) gets nothing
      // rather than the details in the clear
      if (endpoint.include_details === 1 && !mayReceiveDetails(endpoint.url, allowPrivate)) {
        throw new NotSent("not sent: the claimant's details go only to an https:// URL")
      }
      const body = JSON.stringify({
        id: delivery.event_id,
        type: delivery.type,
        createdAt: new Date(Number(delivery.created_at)).toISOString(),
        data: {
          ...(JSON.parse(delivery.data) as Record<string, unknown>),
          ...(endpoint.include_details === 1 ? await claimantDetails(db, delivery) : {}),
        },
      })
      // the time it is sent, not the event's: a receiver may refuse an old timestamp as a replay
      const timestamp = Math.floor(Date.now() / 1000)
      outcome = await postWebhook({
        url: endpoint.url,
        body,
        headers: {
          'Webhook-Id': delivery.event_id,
          'Webhook-Timestamp': String(timestamp),
          'Webhook-Signature': webhookSignature({
            secret: secrets.secretOf(endpoint.secret_salt),
            timestamp,
            body,
          }),
        },
        timeoutMs,
        allowPrivate,
      })
    } catch (error) {
      outcome = { error: error instanceof NotSent ? error.message : `not sent (${errorCode(error)})` }
    }
    await record(delivery, outcome, now)
  }

  const record = async (delivery: DeliveryRow, outcome: PostOutcome, now: number) => {
    const attempts = Number(delivery.attempts) + 1
    const isDelivered = 'statusCode' in outcome && outcome.statusCode >= 200 && outcome.statusCode < 300
    const next = now + RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1]!
    const status = isDelivered ? 'delivered' : next > Number(delivery.give_up_at) ? 'failed' : 'pending'
    if (!isDelivered) {
      logger.warn(
        { delivery: Number(delivery.id), attempts, status, ...outcome },
        'webhook delivery not accepted',
      )
    }
    await retryWhileLocked(() =>
      db
        .updateTable('webhook_deliveries')
        .set({
          status,
          attempts,
          last_attempt_at: now,
          last_status_code: 'statusCode' in outcome ? outcome.statusCode : null,
          last_error: 'error' in outcome ? outcome.error : null,
          due_at: status === 'pending' ? next : null,
          lease_owner: null,
          lease_until: null,
        })
        .where('id', '=', delivery.id)
        .where('lease_owner', '=', owner)
        .execute(),
    )
  }

  const loop = backgroundLoop({
    work: () => runDue(),
    pollMs,
    logger,
    failure: 'webhook deliveries failed',
    requests,
  })
  const unlisten = listenForWebhookEvents(db, {
    wake: wakeOnEvents ? () => loop.wake() : undefined,
    logger,
  })
  return {
    wake: () => loop.wake(),
    runDue,
    settled: () => loop.settled(),
    async stop() {
      unlisten()
      await loop.stop()
    },
  }
}

/** The claimant's name, e-mail and phone, read when the delivery is sent: the outbox keeps none of them. */
async function claimantDetails(db: Kysely<Database>, delivery: DeliveryRow): Promise<Record<string, string>> {
  const data = JSON.parse(delivery.data) as { claimId?: number; intakeId?: number }
  const row =
    data.claimId !== undefined
      ? await db
          .selectFrom('claims')
          .select(['first_name', 'last_name', 'email', 'phone_number as phone'])
          .where('id', '=', data.claimId)
          .executeTakeFirst()
      : data.intakeId !== undefined
        ? await db
            .selectFrom('form_submissions')
            .select(['first_name', 'last_name', 'email', 'phone'])
            .where('id', '=', data.intakeId)
            .executeTakeFirst()
        : undefined
  // a claim purged since its event: its details are gone with it
  if (!row) return {}
  return { firstName: row.first_name, lastName: row.last_name, email: row.email, phone: row.phone }
}
