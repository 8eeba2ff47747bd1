import { startRequestThread, threadEntry, type RequestThread } from '../threads/request-thread.ts'
import type { ScreenshotFingerprint } from './screenshot-fingerprint.ts'

/** Fingerprints screenshots off the event loop. */
export interface ScreenshotHasher {
  /** Rejects when the bytes are not a PNG or JPEG that decodes. */
  fingerprint(bytes: Buffer): Promise<ScreenshotFingerprint>
  stop(): Promise<void>
}

/**
 * Decoding a phone screenshot takes a core for a large fraction of a second: it runs in a worker thread of
 * low priority, started with the first screenshot and again if it fails.
 */
export function screenshotHashThread(): ScreenshotHasher {
  let thread: RequestThread<Uint8Array, ScreenshotFingerprint> | undefined
  return {
    fingerprint(bytes) {
      if (!thread || thread.ended) {
        thread = startRequestThread(threadEntry('screenshot-hash-thread', import.meta.url), undefined)
      }
      // a copy of its own moves to the thread: the caller's buffer may be a slice of a pooled one
      const copy = new Uint8Array(bytes)
      return thread.ask(copy, [copy.buffer])
    },
    async stop() {
      await thread?.stop()
    },
  }
}
