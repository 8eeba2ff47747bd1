import type { DashboardColumn } from '../../../src/form-config.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import type { StaffClaimRow } from './staff-api.ts'

// staff read times in the firm's time zone (firm.json), whoever's browser they use, as the CSV gives them
const timeZone = FIRM_SETTINGS.timeZone
const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone })
const DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' })
const DATE_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone })
const LIST_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeZone })
/** A list's date and time, short enough for one line: "11/28/26, 6:35 AM". */
const LIST_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'short', timeZone })

export function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : DATE.format(date)
}

/** A calendar day given as YYYY-MM-DD, shown without moving it across a time zone. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? day : DAY.format(date)
}

const LONG_DAY = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })
// en-CA writes a day as YYYY-MM-DD
const FIRM_DAY = new Intl.DateTimeFormat('en-CA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZone,
})

/** A calendar day given as YYYY-MM-DD, spelled out for a sentence: "January 27, 2027". */
export function formatLongDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? day : LONG_DAY.format(date)
}

/** The day (YYYY-MM-DD) it is at `when` in the firm's time zone: the server dates notices by it. */
export function firmDay(when: number | Date = new Date()): string {
  return FIRM_DAY.format(when)
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })

/** A fee in dollars: "$3,125.00". */
export function formatUsd(amount: number): string {
  return USD.format(amount)
}

export function formatListTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : LIST_TIME.format(date)
}

export function formatDateTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date)
}

/** The firm's zone as staff read it beside a time: 'America/Los_Angeles' → 'Los Angeles'. */
export const FIRM_ZONE_NAME = timeZone.split('/').at(-1)!.replaceAll('_', ' ')

const AUDIT_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone })

/** An audit entry's time to the second, in the firm's zone, the zone its day filters use. */
export function formatAuditTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : AUDIT_TIME.format(date)
}

/** A time in the firm's zone with the zone named, for a deadline a claimant keeps in another: "… (Los Angeles)". */
export function formatZonedDateTime(iso: string): string {
  return `${formatDateTime(iso)} (${FIRM_ZONE_NAME})`
}

export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`.trim()
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', es: 'Spanish' }

/** The text of one table cell; a column key the config names but this table does not know shows as-is. */
export function cellText(submission: StaffClaimRow, column: DashboardColumn): string {
  switch (column.key) {
    case 'name':
      return fullName(submission)
    case 'createdAt':
      return formatListTime(submission.createdAt)
    case 'locale':
      return LANGUAGE_NAMES[submission.locale] ?? submission.locale
    case 'confirmedAt':
      // the day is enough in the list; the details give the time
      return submission.confirmedAt ? LIST_DAY.format(new Date(submission.confirmedAt)) : '—'
    default: {
      const value = (submission as unknown as Record<string, unknown>)[column.key]
      return value === undefined || value === null ? '' : String(value)
    }
  }
}
