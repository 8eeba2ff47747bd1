import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import type { WebhookEventType } from '../../src/api/webhooks.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { errorCode, type Logger } from '../logger.ts'
import { DAY_MS } from '../../src/durations.ts'

/** How long this process trusts what it read of the endpoints' subscriptions. */
const SUBSCRIPTIONS_TTL_MS = 5_000
/** How long a delivery is retried after its event before it is failed. */
export const GIVE_UP_AFTER_MS = DAY_MS

/** An event as its caller names it; the rest of its data is read only when an endpoint wants it. */
export type WebhookEvent =
  | { type: 'intake.created'; intakeId: number }
  | { type: 'claim.created' | 'claim.confirmed'; claimId: number }
  | { type: 'claim.status_changed'; claimId: number; app: string; from: string; to: string }

/** The body's `data` as queued: ids, app and status, never the claimant's details. */
export type WebhookData = Record<string, string | number | string[]>

interface DatabaseState {
  subscribed: Set<string> | undefined
  readAt: number
  /** The sender of this process (createWebhookDeliveries), told of each event queued. */
  sender: { wake?: (() => void) | undefined; logger: Logger } | undefined
}

// keyed by the database's adapter, which a Kysely instance shares with its transactions: an event
// queued inside a move finds the same state as one queued after a claim
const states = new WeakMap<object, DatabaseState>()

function stateOf(db: Kysely<Database>): DatabaseState {
  const key = db.getExecutor().adapter
  let state = states.get(key)
  if (!state) {
    state = { subscribed: undefined, readAt: 0, sender: undefined }
    states.set(key, state)
  }
  return state
}

/** Lets the sender hear of each event queued on this database (and log what failed after a commit). */
export function listenForWebhookEvents(
  db: Kysely<Database>,
  sender: { wake?: (() => void) | undefined; logger: Logger },
): () => void {
  const state = stateOf(db)
  state.sender = sender
  return () => {
    if (state.sender === sender) state.sender = undefined
  }
}

/** An endpoint was added, changed or deleted here: the next event reads the subscriptions again. */
export function forgetWebhookSubscriptions(db: Kysely<Database>): void {
  stateOf(db).readAt = 0
}

/**
 * Whether this process read, less than SUBSCRIPTIONS_TTL_MS ago, that no active endpoint subscribes to
 * `type`: with no endpoint for it, an event costs no query at all. Another process's change is seen
 * within that time.
 */
function isUnsubscribed(state: DatabaseState, type: WebhookEventType): boolean {
  return (
    state.subscribed !== undefined &&
    Date.now() - state.readAt < SUBSCRIPTIONS_TTL_MS &&
    !state.subscribed.has(type)
  )
}

/**
 * Queues the event for each active endpoint that subscribes to it, in the caller's transaction when
 * given one: a move and its event are kept together or neither. Nothing is sent here; the sender posts
 * it later.
 */
export async function queueWebhookEvent(
  db: Kysely<Database>,
  event: WebhookEvent,
  at = Date.now(),
): Promise<void> {
  const state = stateOf(db)
  if (isUnsubscribed(state, event.type)) return
  const endpoints = (
    await db.selectFrom('webhook_endpoints').select(['id', 'events']).where('is_active', '=', 1).execute()
  ).map((row) => ({ id: Number(row.id), events: JSON.parse(row.events) as string[] }))
  state.subscribed = new Set(endpoints.flatMap((endpoint) => endpoint.events))
  state.readAt = Date.now()
  const ids = endpoints.filter((endpoint) => endpoint.events.includes(event.type)).map(({ id }) => id)
  if (ids.length === 0) return
  const data = await eventData(db, event)
  if (!data) return
  const eventId = crypto.randomUUID()
  await db
    .insertInto('webhook_deliveries')
    .values(
      ids.map((id) => ({
        endpoint_id: id,
        event_id: eventId,
        type: event.type,
        data: JSON.stringify(data),
        created_at: at,
        due_at: at,
        give_up_at: at + GIVE_UP_AFTER_MS,
      })),
    )
    .execute()
  state.sender?.wake?.()
}

/**
 * Queues an event whose record is committed already (a claim, an intake), off the request's way: its
 * caller has answered and waits for nothing. A failure is logged, never the claimant's.
 */
export function queueWebhookEventAfterCommit(db: Kysely<Database>, event: WebhookEvent): void {
  const state = stateOf(db)
  const at = Date.now()
  // the claims' hot path: with no endpoint for the event, not even a promise is made
  if (isUnsubscribed(state, event.type)) return
  // no transaction: the claim is committed, and SQLite's one connection stays free for the next ones
  retryWhileLocked(() => queueWebhookEvent(db, event, at)).catch((error: unknown) => {
    state.sender?.logger.error({ err: errorCode(error), event: event.type }, 'webhook event not queued')
  })
}

/** The event's data: its claim's app and status, or its intake's apps; undefined when it is gone. */
async function eventData(db: Kysely<Database>, event: WebhookEvent): Promise<WebhookData | undefined> {
  if (event.type === 'claim.status_changed') {
    const { claimId, app, from, to } = event
    return { claimId, app, status: to, from, to }
  }
  if (event.type === 'intake.created') {
    const intake = await db
      .selectFrom('form_submissions')
      .select('cash_advance_apps')
      .where('id', '=', event.intakeId)
      .executeTakeFirst()
    if (!intake) return undefined
    return { intakeId: event.intakeId, apps: JSON.parse(intake.cash_advance_apps) as string[] }
  }
  const claim = await db
    .selectFrom('claims')
    .select(['app', 'review_status'])
    .where('id', '=', event.claimId)
    .executeTakeFirst()
  if (!claim) return undefined
  return { claimId: event.claimId, app: claim.app, status: claim.review_status }
}
