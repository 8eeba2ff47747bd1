import { AGREEMENT_DATE_FIELD } from '../../src/api/claim-request.ts'
import { AppError } from '../../src/app-error.ts'
import { DAY_MS } from '../../src/durations.ts'

/**
 * The form prints the claimant's local date; it can only be the server's UTC date or one day either
 * side (time zones span UTC-12 to UTC+14). Without one, the server's UTC date is used.
 */
export function acceptAgreementDate(value: unknown, now: Date): string {
  const today = now.toISOString().slice(0, 10)
  if (value === undefined || value === '') return today
  const allowed = [-DAY_MS, 0, DAY_MS].map((offset) =>
    new Date(now.getTime() + offset).toISOString().slice(0, 10),
  )
  if (typeof value === 'string' && allowed.includes(value)) return value
  throw new AppError('BAD_REQUEST', {
    status: 400,
    message: `"${AGREEMENT_DATE_FIELD}" must be today's date as YYYY-MM-DD (${allowed.join(', ')})`,
  })
}
