export type ErrorCode =
  | 'FORM_NOT_FOUND'
  | 'FORM_CLOSED'
  | 'VALIDATION_FAILED'
  | 'UPLOAD_REQUIRED'
  | 'UPLOAD_NOT_IMAGE'
  | 'UPLOAD_TOO_LARGE'
  | 'BAD_REQUEST'
  | 'BOT_SUSPECTED'
  | 'DUPLICATE_SUBMISSION'
  | 'NOT_FOUND'
  | 'AGREEMENT_NOT_FOUND'
  | 'LINK_EXPIRED'
  | 'CONFIRMATION_NOT_FOUND'
  | 'UNDO_EXPIRED'
  | 'UNDO_TAKEN'
  | 'RATE_LIMITED'
  | 'UNAUTHENTICATED'
  | 'INVALID_PASSWORD'
  | 'TWO_FACTOR_REQUIRED'
  | 'TWO_FACTOR_SETUP_REQUIRED'
  | 'TWO_FACTOR_EMAIL_CODE_REQUIRED'
  | 'INVALID_EMAIL_CODE'
  | 'INVALID_CODE'
  | 'CROSS_SITE_REQUEST'
  | 'FORBIDDEN'
  | 'EMAIL_TAKEN'
  | 'CONFLICT'
  | 'PROOF_OF_WORK_MISSING'
  | 'PROOF_OF_WORK_INVALID'
  | 'PROOF_OF_WORK_USED'
  | 'PROOF_OF_WORK_EXPIRED'
  | 'STORE_UNAVAILABLE'
  | 'MAIL_UNAVAILABLE'
  | 'BUSY'
  | 'UNPROCESSABLE'
  | 'INTERNAL_ERROR'

/** Per-field messages, shaped like the data: `{ email: { __errors: ['Email is required'] } }`. */
export type FieldErrors = Record<string, { __errors: string[] }>

export interface AppErrorOptions {
  status: number
  message: string
  fields?: FieldErrors
  /** Response headers the error needs, e.g. Retry-After on a 429. */
  headers?: Record<string, string>
  /** What a page acts on beyond the message: the claims a refused batch names (ErrorBody's `details`). */
  details?: ErrorDetails
}

/** A refused batch's claims: each problem ("claim 1234: no street address"), and those a cure request can fix. */
export interface ErrorDetails {
  problems: string[]
  /** How many problems were found, when `problems` lists only the first of them. */
  problemCount?: number
  claimIds: number[]
}

/**
 * An error that knows the HTTP status and the message the user sees.
 * @example throw new AppError('FORM_NOT_FOUND', { status: 404, message: 'form "acme" not found' })
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly fields?: FieldErrors
  readonly headers?: Record<string, string>
  readonly details?: ErrorDetails

  constructor(code: ErrorCode, { status, message, fields, headers, details }: AppErrorOptions) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.status = status
    if (fields) this.fields = fields
    if (headers) this.headers = headers
    if (details) this.details = details
  }
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; fields?: FieldErrors; details?: ErrorDetails }
}
