import type { TrackingEvent } from '../src/form-config.ts'

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[]
  }
}

/**
 * Pushes the events onto window.dataLayer (the tag-manager convention) once per key: a reload of the
 * same confirmation page does not count a second conversion.
 */
export function pushTrackingEventsOnce(
  key: string,
  events: TrackingEvent[],
  extra: Record<string, unknown>,
): void {
  const storageKey = `tracked:${key}`
  try {
    if (sessionStorage.getItem(storageKey)) return
    sessionStorage.setItem(storageKey, '1')
  } catch {
    // storage can be disabled (private mode); counting twice is better than never
  }
  window.dataLayer = window.dataLayer ?? []
  for (const event of events) window.dataLayer.push({ ...event, ...extra })
}
