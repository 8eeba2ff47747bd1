import type { Request } from 'express'
import { AppError } from '../../src/app-error.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { startOfZonedDay, type CalendarDay } from '../../src/zoned-day.ts'

/** The audit page's filters, checked: each undefined for all. */
export interface AuditFilters {
  accountId?: number
  app?: string
  action?: string
  /** The first instant of the `from` day in the firm's zone, as ISO 8601. */
  fromAt?: string
  /** The first instant after the `to` day in the firm's zone, as ISO 8601: the `to` day is included. */
  beforeAt?: string
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** ?account=&app=&action=&from=&to= of the audit log; a malformed one is a 400 naming it. */
export function parseAuditFilters(query: Request['query']): AuditFilters {
  const account = text(query.account, 'account')
  if (account !== undefined && !/^[1-9]\d{0,14}$/.test(account)) {
    throw badRequest('"account" must be the id of a staff account (a whole number)')
  }
  const app = text(query.app, 'app')
  if (app !== undefined && !NAME.test(app)) {
    throw badRequest('"app" must be an app\'s name, such as "brigit" (lower-case letters, digits, "-")')
  }
  const action = text(query.action, 'action')
  if (action !== undefined && !NAME.test(action)) {
    throw badRequest('"action" must be an action\'s name, such as "login_success"')
  }
  const from = day(query.from, 'from')
  const to = day(query.to, 'to')
  if (
    from !== undefined &&
    to !== undefined &&
    Date.UTC(from.year, from.month - 1, from.day) > Date.UTC(to.year, to.month - 1, to.day)
  ) {
    throw badRequest('"from" must be on or before "to"')
  }
  return {
    ...(account !== undefined ? { accountId: Number(account) } : {}),
    ...(app !== undefined ? { app } : {}),
    ...(action !== undefined ? { action } : {}),
    // the days staff mean: the firm's, as every staff page shows times
    ...(from !== undefined
      ? { fromAt: new Date(startOfZonedDay(from, FIRM_SETTINGS.timeZone)).toISOString() }
      : {}),
    ...(to !== undefined
      ? {
          beforeAt: new Date(
            startOfZonedDay({ ...to, day: to.day + 1 }, FIRM_SETTINGS.timeZone),
          ).toISOString(),
        }
      : {}),
  }
}

/** A parameter given once as text; '' counts as left out (a form's "All"). */
function text(value: unknown, name: string): string | undefined {
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') throw badRequest(`"${name}" must be given once`)
  return value
}

/** A YYYY-MM-DD day, checked to be one. */
function day(value: unknown, name: string): CalendarDay | undefined {
  const given = text(value, name)
  if (given === undefined) return undefined
  const parts = DAY.exec(given)
  const time = parts ? Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])) : NaN
  // Date.UTC rolls 2026-02-30 over into March: only a day that comes back as given is real
  if (!parts || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== given) {
    throw badRequest(`"${name}" must be a date written YYYY-MM-DD, such as 2026-11-27`)
  }
  return { year: Number(parts[1]), month: Number(parts[2]), day: Number(parts[3]) }
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
