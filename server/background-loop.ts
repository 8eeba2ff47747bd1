import { setTimeout as sleep } from 'node:timers/promises'
import { performance } from 'node:perf_hooks'
import type { Logger } from './logger.ts'

// claims come first: background work (e-mail copies, screenshot checks) waits while the event loop is
// this busy, or while claims are still coming in (on PostgreSQL a surge keeps the loop waiting on the
// database more than busy)
const BUSY_UTILIZATION = 0.5
const QUIET_AFTER_CLAIM_MS = 500
const QUIET_CHECK_MS = 20

/** Work the server does beside its requests: run when woken, and every poll for what others queued. */
export interface BackgroundLoop {
  /** A claim came in with work for the loop: run now, or once more after the run under way. */
  wake(): void
  /** Resolves once a run finds nothing more to do (or the loop is stopped). */
  settled(): Promise<void>
  stop(): Promise<void>
  isStopped(): boolean
  /**
   * Waits while the event loop is busier than BUSY_UTILIZATION or a claim came in less than
   * QUIET_AFTER_CLAIM_MS ago; at the latest until `deadline` (epoch ms).
   */
  quietMoment(deadline?: number): Promise<void>
}

/**
 * One run of `work` at a time: a wake during a run asks for one more run after it, and between runs
 * the loop polls every `pollMs` (work queued by another server process, retries that came due). A
 * failed run is logged and the next poll tries again.
 */
export function backgroundLoop({
  work,
  pollMs,
  logger,
  failure,
}: {
  /** Does what is due, returning when nothing more is. */
  work: () => Promise<void>
  pollMs: number
  logger: Logger
  /** The log line of a failed run. */
  failure: string
}): BackgroundLoop {
  let stopped = false
  let again = false
  let running: Promise<void> | undefined
  let timer: NodeJS.Timeout | undefined
  let lastClaimAt = 0

  function run(): void {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    clearTimeout(timer)
    running = work()
      .catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, failure)
      })
      .finally(() => {
        running = undefined
        if (again) {
          again = false
          run()
        } else if (!stopped) {
          timer = setTimeout(run, pollMs).unref()
        }
      })
  }

  return {
    wake() {
      lastClaimAt = Date.now()
      run()
    },
    async settled() {
      while (running && !stopped) await running
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
    isStopped: () => stopped,
    async quietMoment(deadline = Number.POSITIVE_INFINITY) {
      while (!stopped) {
        const before = performance.eventLoopUtilization()
        await sleep(QUIET_CHECK_MS)
        const busy =
          performance.eventLoopUtilization(before).utilization >= BUSY_UTILIZATION ||
          Date.now() - lastClaimAt < QUIET_AFTER_CLAIM_MS
        if (!busy || Date.now() >= deadline) return
      }
    },
  }
}
