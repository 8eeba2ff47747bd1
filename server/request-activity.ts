import { performance } from 'node:perf_hooks'
import type { RequestHandler } from 'express'

/**
 * The server's own requests under way: background work (backgroundLoop's quietMoment) waits for a gap
 * in them. Judged by requests rather than by the event loop's load, so that the background work's own
 * time on the loop (a copy's mail, a check's queries) never reads as a busy server and holds it back.
 */
export interface RequestActivity {
  /** Express middleware: counts each request from its arrival until its response is finished or abandoned. */
  track: RequestHandler
  /** Whether a request was under way at any time in the last `ms` milliseconds. */
  activeWithin(ms: number): boolean
}

export function requestActivity(): RequestActivity {
  let underWay = 0
  let lastEndedAt = Number.NEGATIVE_INFINITY
  return {
    track(_req, res, next) {
      underWay++
      let ended = false
      const end = () => {
        if (ended) return
        ended = true
        underWay--
        lastEndedAt = performance.now()
      }
      res.once('finish', end)
      res.once('close', end)
      next()
    },
    activeWithin: (ms) => underWay > 0 || performance.now() - lastEndedAt < ms,
  }
}
