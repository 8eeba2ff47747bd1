import type { ErrorRequestHandler, RequestHandler } from 'express'
import multer from 'multer'
import { AppError, type ErrorBody } from '../src/app-error.ts'
import { FILE_TOO_LARGE_MESSAGE } from '../src/claim-messages.ts'
import type { Logger } from './logger.ts'

/** The one place errors become responses: `{ error: { code, message, fields? } }`. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const appError = toAppError(error)
    if (!appError) {
      logger.error({ err: error, reqId: res.locals.reqId, path: req.path }, 'unhandled error')
    }
    const known =
      appError ??
      new AppError('INTERNAL_ERROR', { status: 500, message: 'something went wrong; please try again' })
    const body: ErrorBody = { error: { code: known.code, message: known.message } }
    if (known.fields) body.error.fields = known.fields
    if (res.headersSent) {
      // part of a body (a streamed CSV) already left: cut the connection so the client sees a failure
      res.destroy()
      return
    }
    if (known.headers) res.set(known.headers)
    res.status(known.status).json(body)
  }
}

export const notFoundApi: RequestHandler = (req, _res, next) => {
  next(
    new AppError('NOT_FOUND', {
      status: 404,
      message: `no API route "${req.method} ${req.baseUrl}${req.path}"`,
    }),
  )
}

function toAppError(error: unknown): AppError | undefined {
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
  const status = (error as { status?: unknown; type?: unknown } | null)?.status
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // body-parser and busboy errors (malformed multipart, bad JSON) carry a 4xx status
    return new AppError('BAD_REQUEST', { status, message: `malformed request: ${(error as Error).message}` })
  }
  if (
    error instanceof Error &&
    /Unexpected end of form|Malformed part header|Multipart: Boundary not found/i.test(error.message)
  ) {
    return new AppError('BAD_REQUEST', { status: 400, message: `malformed multipart body: ${error.message}` })
  }
  return undefined
}
