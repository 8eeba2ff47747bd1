import type { Kysely, Selectable } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  WEBHOOK_EVENT_TYPES,
  type ChangeWebhookRequest,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../src/api/webhooks.ts'
import type { Database, WebhookDeliveriesTable, WebhookEndpointsTable } from '../db/database.ts'
import { GIVE_UP_AFTER_MS } from './webhook-events.ts'

/** The most deliveries an endpoint's log shows. */
const LOG_SIZE = 50

export function endpointRowToEndpoint(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  return {
    id: Number(row.id),
    url: row.url,
    events: JSON.parse(row.events) as WebhookEventType[],
    includeDetails: row.include_details === 1,
    isActive: row.is_active === 1,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    createdBy: row.created_by,
  }
}

function deliveryRowToDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  const iso = (time: number | null) => (time === null ? null : new Date(Number(time)).toISOString())
  return {
    id: Number(row.id),
    eventId: row.event_id,
    type: row.type as WebhookEventType,
    createdAt: iso(row.created_at)!,
    status: row.status,
    attempts: Number(row.attempts),
    lastAttemptAt: iso(row.last_attempt_at),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    nextAttemptAt: iso(row.due_at),
  }
}

export async function listEndpoints(db: Kysely<Database>): Promise<WebhookEndpoint[]> {
  const rows = await db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute()
  return rows.map(endpointRowToEndpoint)
}

export async function findEndpoint(
  db: Kysely<Database>,
  id: number,
): Promise<Selectable<WebhookEndpointsTable>> {
  const row = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw new AppError('NOT_FOUND', { status: 404, message: `no webhook endpoint ${id}` })
  return row
}

/** The endpoint's most recent deliveries, newest first. */
export async function listDeliveries(db: Kysely<Database>, endpointId: number): Promise<WebhookDelivery[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('id', 'desc')
    .limit(LOG_SIZE)
    .execute()
  return rows.map(deliveryRowToDelivery)
}

/**
 * Queues a delivery again, due now, with a fresh day of retries; 409 while a process is sending it.
 * Resolves to the delivery as it is now.
 */
export async function sendAgain(
  db: Kysely<Database>,
  { endpointId, deliveryId, now = Date.now() }: { endpointId: number; deliveryId: number; now?: number },
): Promise<WebhookDelivery> {
  const row = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, due_at: now, give_up_at: now + GIVE_UP_AFTER_MS })
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returningAll()
    .executeTakeFirst()
  if (row) return deliveryRowToDelivery(row)
  const exists = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst()
  if (!exists) {
    throw new AppError('NOT_FOUND', {
      status: 404,
      message: `no delivery ${deliveryId} of endpoint ${endpointId}`,
    })
  }
  throw new AppError('CONFLICT', {
    status: 409,
    message: 'the delivery is being sent right now: try again in a minute',
  })
}

/** The events of a request: a non-empty list of known ones, each once, in the page's order. */
export function parseEvents(value: unknown): WebhookEventType[] {
  const known: readonly string[] = WEBHOOK_EVENT_TYPES
  if (!Array.isArray(value) || value.length === 0) {
    throw badRequest(`"events" must list one or more of ${WEBHOOK_EVENT_TYPES.join(', ')}`)
  }
  const unknown = value.find((event) => typeof event !== 'string' || !known.includes(event))
  if (unknown !== undefined) {
    throw badRequest(`unknown event "${String(unknown)}": use ${WEBHOOK_EVENT_TYPES.join(', ')}`)
  }
  return WEBHOOK_EVENT_TYPES.filter((event) => value.includes(event))
}

/** A PATCH body: only the fields it names, each checked. */
export function parseChange(body: unknown): ChangeWebhookRequest {
  const input = (body ?? {}) as Record<string, unknown>
  const change: ChangeWebhookRequest = {}
  for (const name of ['isActive', 'includeDetails'] as const) {
    if (input[name] === undefined) continue
    if (typeof input[name] !== 'boolean') throw badRequest(`"${name}" must be true or false`)
    change[name] = input[name]
  }
  if (input.events !== undefined) change.events = parseEvents(input.events)
  if (Object.keys(change).length === 0) {
    throw badRequest('send "isActive", "events" or "includeDetails" to change')
  }
  return change
}

/** An id in the address: a whole number, else 404 (as for one that does not exist). */
export function parseId(value: unknown, what: string): number {
  const text = String(value)
  if (!/^\d{1,15}$/.test(text))
    throw new AppError('NOT_FOUND', { status: 404, message: `no ${what} "${text}"` })
  return Number(text)
}

export function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
