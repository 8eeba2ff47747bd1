import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises'
import type { Logger } from '../logger.ts'
import type { RequestActivity } from '../request-activity.ts'

// claims come first: background work (e-mail copies, screenshot checks) waits while the server's requests
// are under way, and after each claim for a moment, so that it never starts in the gaps of a surge
const QUIET_AFTER_CLAIM_MS = 500
// the gap without a request that counts as quiet, and how often a waiting job looks again
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
   * Waits while a request is under way (or ended less than QUIET_CHECK_MS ago) or a claim came in
   * less than QUIET_AFTER_CLAIM_MS ago; at the latest until `deadline` (epoch ms).
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
  requests,
}: {
  /** Does what is due, returning when nothing more is. */
  work: () => Promise<void>
  pollMs: number
  logger: Logger
  /** The log line of a failed run. */
  failure: string
  /**
   * The server's requests, which the loop's work waits for (quietMoment); left out (tests), only the
   * claims it is woken by hold it back.
   */
  requests?: RequestActivity | undefined
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
      // judged by requests, not by the event loop's load: the background work's own time on the loop
      // (a copy's mail, a check's queries) would read as a busy server and hold the work back
      const busy = () =>
        Date.now() - lastClaimAt < QUIET_AFTER_CLAIM_MS || requests?.activeWithin(QUIET_CHECK_MS) === true
      // a turn of the event loop first, always: work whose queries answer at once (SQLite) would
      // otherwise run item after item without letting a request or a timer in
      await nextTurn()
      while (!stopped && Date.now() < deadline && busy()) await sleep(QUIET_CHECK_MS)
    },
  }
}
