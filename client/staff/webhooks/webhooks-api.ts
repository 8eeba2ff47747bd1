import type {
  ChangeWebhookRequest,
  CreatedWebhook,
  CreateWebhookRequest,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../../src/api/webhooks.ts'
import { fetchJson } from '../../http.ts'

const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json' }

export function fetchEndpoints(signal?: AbortSignal): Promise<WebhookEndpointList> {
  return fetchJson('/api/staff/webhooks', { signal, cache: 'no-store' })
}

export function addEndpoint(request: CreateWebhookRequest): Promise<CreatedWebhook> {
  return fetchJson('/api/staff/webhooks', {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify(request),
  })
}

export function changeEndpoint(id: number, change: ChangeWebhookRequest): Promise<WebhookEndpoint> {
  return fetchJson(`/api/staff/webhooks/${id}`, {
    method: 'PATCH',
    headers: JSON_HEADERS,
    body: JSON.stringify(change),
  })
}

export async function deleteEndpoint(id: number): Promise<void> {
  await fetchJson<void>(`/api/staff/webhooks/${id}`, { method: 'DELETE' })
}

export function fetchDeliveries(id: number, signal?: AbortSignal): Promise<WebhookDeliveryList> {
  return fetchJson(`/api/staff/webhooks/${id}/deliveries`, { signal, cache: 'no-store' })
}

export function sendAgain(endpointId: number, deliveryId: number): Promise<WebhookDelivery> {
  return fetchJson(`/api/staff/webhooks/${endpointId}/deliveries/${deliveryId}/send-again`, {
    method: 'POST',
    headers: JSON_HEADERS,
  })
}
