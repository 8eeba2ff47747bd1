import type { ErrorRequestHandler, Request, RequestHandler } from 'express'
import multer from 'multer'
import { AppError, type ErrorBody, type FieldErrors } from '../src/app-error.ts'
import { FILE_TOO_LARGE_MESSAGE } from '../src/claim-messages.ts'
import type { Translator } from '../src/translate.ts'
import { databaseUnavailableError, isDatabaseUnavailable } from './db/database-unavailable.ts'
import type { Languages } from './forms/languages.ts'
import { requestLocale } from './platform/request-locale.ts'
import type { Logger } from './logger.ts'

/**
 * The one place errors become responses: `{ error: { code, message, fields? } }`, in the language the
 * page asked in (`?lang`) wherever the message is one a claimant reads.
 */
export function errorHandler({
  logger,
  languages,
}: {
  logger: Logger
  languages: Languages
}): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const unavailable = isDatabaseUnavailable(error)
    const appError = unavailable ? databaseUnavailableError() : toAppError(error, req)
    if (unavailable) {
      logger.warn({ err: error, reqId: res.locals.reqId, path: req.path }, 'database unavailable')
    } else if (!appError) {
      logger.error({ err: error, reqId: res.locals.reqId, path: req.path }, 'unhandled error')
    }
    const known =
      appError ??
      new AppError('INTERNAL_ERROR', { status: 500, message: 'something went wrong; please try again' })
    const t = languages.t(requestLocale(req))
    const body: ErrorBody = { error: { code: known.code, message: t(known.message) } }
    if (known.fields) body.error.fields = translateFields(known.fields, t)
    if (known.details) body.error.details = known.details
    if (res.headersSent) {
      // part of a body (a streamed CSV) already left: cut the connection so the client sees a failure
      res.destroy()
      return
    }
    if (known.headers) res.set(known.headers)
    res.status(known.status).json(body)
  }
}

function translateFields(fields: FieldErrors, t: Translator): FieldErrors {
  const translated: FieldErrors = Object.create(null) as FieldErrors
  for (const [field, { __errors }] of Object.entries(fields)) {
    translated[field] = { __errors: __errors.map((message) => t(message)) }
  }
  return translated
}

export const notFoundApi: RequestHandler = (req, _res, next) => {
  next(
    new AppError('NOT_FOUND', {
      status: 404,
      message: `no API route "${req.method} ${req.baseUrl}${req.path}"`,
    }),
  )
}

/** What a refusal of the body's format says about the request: its Content-Type, or that there is none. */
export function describeContentType(req: Request): string {
  const contentType = req.get('content-type')
  if (req.is('*/*') === null) return 'the request has no body'
  if (contentType === undefined) return 'the request has no Content-Type'
  return `the request's Content-Type is "${contentType.length > 100 ? `${contentType.slice(0, 100)}…` : contentType}"`
}

function toAppError(error: unknown, req: Request): AppError | undefined {
  if (error instanceof AppError) return error
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE') {
      return new AppError('UPLOAD_TOO_LARGE', {
        status: 413,
        message: FILE_TOO_LARGE_MESSAGE,
        fields: { screenshotFile: { __errors: [FILE_TOO_LARGE_MESSAGE] } },
      })
    }
    return new AppError('BAD_REQUEST', {
      status: 400,
      message: `upload refused: ${error.message}${error.field ? ` ("${error.field}")` : ''}`,
    })
  }
  const { status, type, limit, errno } = (error ?? {}) as {
    status?: unknown
    type?: unknown
    limit?: unknown
    errno?: unknown
  }
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // body-parser's errors (bad JSON, too large, unknown charset) carry a 4xx status and a type
    const message =
      type === 'entity.too.large'
        ? `the request body is too large (at most ${String(limit)} bytes)`
        : type === 'entity.parse.failed'
          ? `the request body is not valid JSON: ${(error as Error).message}`
          : typeof errno === 'number' && req.get('content-encoding') !== undefined
            ? // zlib's own error: the body is not in the encoding its header names
              `the request body is not valid Content-Encoding "${req.get('content-encoding')}": ${(error as Error).message}`
            : `malformed request: ${(error as Error).message}`
    return new AppError('BAD_REQUEST', { status, message })
  }
  return undefined
}
