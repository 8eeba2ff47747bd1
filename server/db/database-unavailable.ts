import { AppError } from '../../src/app-error.ts'
import { isNetworkFailure } from '../network-failure.ts'

/**
 * PostgreSQL's SQLSTATEs for a server that is down, starting, shutting down, out of connections or
 * cancelled by statement_timeout: nothing the request did wrong, and worth trying again shortly.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-4]|53300|57014)$/
/** The pg pool's own messages when the server vanishes or never answers. */
const DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/
/** SQLite's failures of the disk under the database file. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|FULL|IOERR|CANTOPEN|READONLY)/

/** Whether the error means the database could not be reached or could not take the write. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  if (isNetworkFailure(error)) return true
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || SQLITE_UNAVAILABLE.test(code)))
    return true
  if (typeof message === 'string' && DRIVER_MESSAGES.test(message)) return true
  // a host name with several addresses (localhost: ::1 and 127.0.0.1) fails with one error per address
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable)
}

/** The 503 a request gets while the database is unreachable; it recovers by itself when the database does. */
export function databaseUnavailableError(): AppError {
  return new AppError('STORE_UNAVAILABLE', {
    status: 503,
    message: 'the database cannot be reached; please try again in a few minutes',
    headers: { 'Retry-After': '30' },
  })
}
