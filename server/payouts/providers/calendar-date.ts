const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/**
 * Whether `text` is a day of the calendar written YYYY-MM-DD. Date.parse alone lets "2026-02-30"
 * through as 2 March; the day is written back and compared instead.
 * @example isCalendarDate('2026-02-30') // false
 */
export function isCalendarDate(text: string): boolean {
  if (!ISO_DATE.test(text)) return false
  const time = Date.parse(`${text}T00:00:00Z`)
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text
}
