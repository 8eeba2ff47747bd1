import type { PayPalApi } from './paypal-api.ts'
import type { PayoutItemStatus } from './paypal-batch-status.ts'

/** The headers PayPal signs a webhook with, by the names Node gives them (lowercase). */
const TRANSMISSION_HEADERS = {
  transmission_id: 'paypal-transmission-id',
  transmission_time: 'paypal-transmission-time',
  transmission_sig: 'paypal-transmission-sig',
  cert_url: 'paypal-cert-url',
  auth_algo: 'paypal-auth-algo',
} as const

/** The payout item events we act on, and the status each moves the item to. */
const PAYOUT_ITEM_EVENTS: Record<string, Exclude<PayoutItemStatus, 'pending'>> = {
  'PAYMENT.PAYOUTS-ITEM.SUCCEEDED': 'paid',
  'PAYMENT.PAYOUTS-ITEM.FAILED': 'failed',
  'PAYMENT.PAYOUTS-ITEM.UNCLAIMED': 'unclaimed',
  'PAYMENT.PAYOUTS-ITEM.RETURNED': 'failed',
  'PAYMENT.PAYOUTS-ITEM.BLOCKED': 'failed',
  'PAYMENT.PAYOUTS-ITEM.DENIED': 'failed',
}

/** What a payout item event says about one item. */
export interface PayoutItemEvent {
  /** PayPal's event id: the same event delivered twice has the same one. */
  eventId: string
  eventType: string
  senderItemId: string
  payoutItemId: string
  status: Exclude<PayoutItemStatus, 'pending'>
  errorName?: string
}

export type WebhookHeaders = Record<string, string | string[] | undefined>

/**
 * Whether PayPal sent this webhook, as PayPal's POST /v1/notifications/verify-webhook-signature judges
 * it: true only for verification_status SUCCESS. A delivery missing a transmission header, or whose body
 * is not a JSON object, is false without asking (fail-closed). Rejects when PayPal cannot be asked, so
 * that the route answers 5xx and PayPal delivers again.
 */
export async function verifyPayPalWebhook({
  api,
  webhookId,
  headers,
  rawBody,
}: {
  api: PayPalApi
  webhookId: string
  headers: WebhookHeaders
  rawBody: string
}): Promise<boolean> {
  const fields: Record<string, string> = {}
  for (const [field, header] of Object.entries(TRANSMISSION_HEADERS)) {
    const value = headers[header]
    if (typeof value !== 'string' || !value) return false // fail-closed
    fields[field] = value
  }
  if (!isJsonObject(rawBody)) return false // fail-closed
  // the event goes back as the very text that came: PayPal's signature covers a checksum of the body,
  // and parsing and writing it again could change it (the order of keys, how a number is written)
  const head = JSON.stringify({ ...fields, webhook_id: webhookId })
  const body = `${head.slice(0, -1)},"webhook_event":${rawBody}}`
  const answer = await api.call<{ verification_status?: string }>({
    method: 'POST',
    path: '/v1/notifications/verify-webhook-signature',
    body,
  })
  return answer.verification_status === 'SUCCESS'
}

/**
 * The item a payout item event is about, and its new status; null for an event of another type (a
 * batch event, or an item event such as HELD that changes nothing for us). Throws when a payout item
 * event lacks the item's ids.
 */
export function parsePayPalPayoutEvent(event: unknown): PayoutItemEvent | null {
  const {
    id,
    event_type: eventType,
    resource,
  } = (event ?? {}) as {
    id?: unknown
    event_type?: unknown
    resource?: {
      payout_item_id?: unknown
      payout_item?: { sender_item_id?: unknown }
      errors?: { name?: unknown }
    }
  }
  if (typeof eventType !== 'string') return null
  const status = PAYOUT_ITEM_EVENTS[eventType]
  if (!status) return null
  const payoutItemId = resource?.payout_item_id
  const senderItemId = resource?.payout_item?.sender_item_id
  if (typeof id !== 'string' || typeof payoutItemId !== 'string' || typeof senderItemId !== 'string') {
    throw new Error(`the paypal event "${eventType}" does not name its event id, payout item and sender item`)
  }
  const errorName = resource?.errors?.name
  return {
    eventId: id,
    eventType,
    senderItemId,
    payoutItemId,
    status,
    ...(typeof errorName === 'string' && errorName ? { errorName } : {}),
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}
