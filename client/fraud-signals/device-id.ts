import { DEVICE_ID_PATTERN } from '../../src/form-signals.ts'

// in this browser's own storage, never a cookie: the site's own pages read it, and the server sees it
// only with an intake or a claim the claimant sends
const STORAGE_KEY = 'claims-device'

// the page's id when storage is off (private mode, blocked), so one page's sends still share one
let pageId: string | undefined

/**
 * This browser's random id, made on first use and kept, so the fraud tests can tell many claimants sent
 * from one browser. It is 16 random bytes and nothing else: no fingerprint of the browser or the person.
 */
export function deviceId(): string {
  pageId ??= randomId()
  try {
    const stored = localStorage.getItem(STORAGE_KEY)
    if (stored !== null && DEVICE_ID_PATTERN.test(stored)) return stored
    localStorage.setItem(STORAGE_KEY, pageId)
  } catch {
    // storage is off: this page's id stands in
  }
  return pageId
}

/** 16 random bytes in base64url: 22 characters. */
function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
