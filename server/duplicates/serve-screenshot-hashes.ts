import { serveRequests } from '../threads/serve-requests.ts'
import { fingerprintScreenshot, type ScreenshotFingerprint } from './screenshot-fingerprint.ts'

// Inside the hashing thread: each screenshot's bytes decoded and fingerprinted, one at a time.
serveRequests<Uint8Array, ScreenshotFingerprint>(async (bytes) => ({ reply: fingerprintScreenshot(bytes) }))
