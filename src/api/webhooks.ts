/**
 * What the webhook endpoints' admin API takes and answers (server/webhooks/webhooks.routes.ts), shared by
 * the server and the page.
 * @example const { endpoints } = await fetchJson<WebhookEndpointList>('/api/staff/webhooks')
 */

/** The events an endpoint may subscribe to, in the order the page lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'intake.created',
  'claim.created',
  'claim.confirmed',
  'claim.status_changed',
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]

/** What each event means, as the page's checkboxes say it. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'intake.created': 'A main-form intake is received',
  'claim.created': 'A Step 2 claim is received',
  'claim.confirmed': 'A claimant confirms a claim from its e-mail',
  'claim.status_changed': "A claim's review status changes",
}

/** The longest endpoint URL the server takes. */
export const MAX_WEBHOOK_URL_LENGTH = 2000

/** One endpoint as the list shows it; its secret is never in it. */
export interface WebhookEndpoint {
  id: number
  url: string
  events: WebhookEventType[]
  /** The body also carries the claimant's first and last name, e-mail and phone. */
  includeDetails: boolean
  /** false: paused, its events are neither queued nor sent. */
  isActive: boolean
  /** ISO time */
  createdAt: string
  createdBy: string
}

/** GET /api/staff/webhooks */
export interface WebhookEndpointList {
  endpoints: WebhookEndpoint[]
}

/** POST /api/staff/webhooks */
export interface CreateWebhookRequest {
  url: string
  events: WebhookEventType[]
  includeDetails?: boolean
}

/** The answer to POST /api/staff/webhooks: the only time the secret is shown. */
export interface CreatedWebhook {
  endpoint: WebhookEndpoint
  /** Signs each delivery (Webhook-Signature); the receiver keeps it. */
  secret: string
}

/** PATCH /api/staff/webhooks/:endpointId: each field left out stays as it is. */
export interface ChangeWebhookRequest {
  isActive?: boolean
  events?: WebhookEventType[]
  includeDetails?: boolean
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed'

/** One event's delivery to one endpoint, as its log shows it. */
export interface WebhookDelivery {
  id: number
  /** The Webhook-Id header and the body's `id`: the same on every attempt. */
  eventId: string
  type: WebhookEventType
  /** ISO time the event happened */
  createdAt: string
  status: WebhookDeliveryStatus
  attempts: number
  lastAttemptAt: string | null
  /** The receiver's HTTP status of the last attempt, null when none came (timed out, refused). */
  lastStatusCode: number | null
  lastError: string | null
  /** When it is tried next; null once delivered or failed. */
  nextAttemptAt: string | null
}

/** GET /api/staff/webhooks/:endpointId/deliveries: the most recent first. */
export interface WebhookDeliveryList {
  deliveries: WebhookDelivery[]
}
