import type { Kysely, Selectable } from 'kysely'
import type { Database, WebhookDeliveriesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import { errorCode, type Logger } from '../logger.ts'
import { mayReceiveDetails } from './webhook-addresses.ts'
import { listenForWebhookEvents } from './webhook-events.ts'
import { postWebhook, type PostOutcome } from './post-webhook.ts'
import { webhookSecrets, webhookSignature } from './webhook-secret.ts'

export const DELIVER_WEBHOOK = 'deliver-webhook'

/** Each attempt is cut off after this long. */
export const DEFAULT_TIMEOUT_MS = 10_000
/** Deliveries posted at once: one receiver that hangs does not hold up the others. */
const IN_FLIGHT = 8
/** Delivered and failed deliveries are kept this long in the log. */
const KEEP_MS = 30 * 24 * 3600_000
const PRUNE_EVERY_MS = 3600_000

type DeliveryRow = Selectable<WebhookDeliveriesTable>

/** A delivery refused before sending, with the reason its log shows. */
class NotSent extends Error {}

/**
 * POSTs a queued webhook delivery signed (Webhook-Id, Webhook-Timestamp, Webhook-Signature): a 2xx
 * answer delivers it, anything else is retried on the retry policy until a day after its event (or its
 * "Send again"), then it is failed. A paused endpoint's deliveries wait.
 */
export function deliverWebhookJob({
  db,
  evidenceKey,
  allowPrivate,
  logger,
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
  timeoutMs?: number | undefined
  pollMs?: number
  /** false (tests): an event queued does not start the sender; runDue does. */
  wakeOnEvents?: boolean
}): RowJobHandler<'webhook_deliveries'> {
  const secrets = webhookSecrets(evidenceKey)
  let prunedAt = 0

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

  return {
    kind: DELIVER_WEBHOOK,
    table: 'webhook_deliveries',
    where: (eb) =>
      eb.and([
        eb('status', '=', 'pending'),
        eb('endpoint_id', 'in', eb.selectFrom('webhook_endpoints').select('id').where('is_active', '=', 1)),
      ]),
    pollMs,
    batch: IN_FLIGHT,
    inFlight: IN_FLIGHT,
    // an event queued inside a transaction wakes the runner before its commit: by the quiet moment after
    // the wake, it has committed
    waitsForQuiet: true,
    async beforeRun(now) {
      if (now - prunedAt >= PRUNE_EVERY_MS) await prune(now)
    },
    // an event queued inside a transaction wakes the runner before its commit: by the quiet moment
    // after the wake, it has committed
    listen: (wake) => listenForWebhookEvents(db, { wake: wakeOnEvents ? wake : undefined, logger }),
    async run({ row: delivery, attempts, now, retryAt }) {
      const endpoint = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', delivery.endpoint_id)
        .executeTakeFirst()
      if (!endpoint) {
        // deleted since it was taken
        await db.deleteFrom('webhook_deliveries').where('id', '=', delivery.id).execute()
        return 'ended'
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
      const isDelivered = 'statusCode' in outcome && outcome.statusCode >= 200 && outcome.statusCode < 300
      const status = isDelivered
        ? 'delivered'
        : retryAt === undefined || retryAt > Number(delivery.give_up_at)
          ? 'failed'
          : 'pending'
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
            last_attempt_at: now,
            last_status_code: 'statusCode' in outcome ? outcome.statusCode : null,
            last_error: 'error' in outcome ? outcome.error : null,
          })
          .where('id', '=', delivery.id)
          .execute(),
      )
      return status === 'pending' ? 'retry' : 'done'
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
