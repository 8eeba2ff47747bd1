import crypto from 'node:crypto'
import type { RequestHandler } from 'express'
import type { Logger } from './logger.ts'

/** One log line per request: id, method, path (never the query or body), status and time. */
export function requestLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    const reqId = crypto.randomUUID()
    res.locals.reqId = reqId
    res.setHeader('X-Request-Id', reqId)
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      logger.info(
        { reqId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms) },
        'request',
      )
    })
    next()
  }
}
