import { useId } from 'react'
import { formatDay } from '../shared/format.ts'
import type { DailyCount } from '../shared/staff-api.ts'
import { DAY_MS } from '../../../src/durations.ts'

export const CHART_DAYS = 90
const BAR_WIDTH = 10
const CHART_HEIGHT = 100

/** Every day of the window ending `end` (YYYY-MM-DD, UTC), with 0 where the server sent nothing. */
export function fillDays(daily: DailyCount[], end: string, days = CHART_DAYS): DailyCount[] {
  const counts = new Map(daily.map((day) => [day.date, day.count]))
  const endMs = Date.parse(`${end}T00:00:00Z`)
  return Array.from({ length: days }, (_, index) => {
    const date = new Date(endMs - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10)
    return { date, count: counts.get(date) ?? 0 }
  })
}

/** Submissions per day as bars, drawn as plain SVG; the figures are also given as text. */
export function DailyChart({ daily }: { daily: DailyCount[] }) {
  const titleId = useId()
  const today = new Date().toISOString().slice(0, 10)
  const latest = daily.reduce((max, day) => (day.date > max ? day.date : max), today)
  const days = fillDays(daily, latest)
  const max = Math.max(1, ...days.map((day) => day.count))
  const sum = days.reduce((total, day) => total + day.count, 0)
  const busiest = days.reduce((best, day) => (day.count > best.count ? day : best), days[0]!)
  const first = days[0]!.date
  const last = days[days.length - 1]!.date

  return (
    <figure className="daily-chart">
      <figcaption id={titleId}>Submissions per day, last {CHART_DAYS} days</figcaption>
      <div className="chart-frame">
        <span className="chart-max" aria-hidden="true">
          {max}
        </span>
        <svg
          role="img"
          aria-labelledby={titleId}
          aria-describedby={`${titleId}-summary`}
          viewBox={`0 0 ${days.length * BAR_WIDTH} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
        >
          <line
            className="chart-axis"
            x1={0}
            y1={CHART_HEIGHT}
            x2={days.length * BAR_WIDTH}
            y2={CHART_HEIGHT}
          />
          {days.map((day, index) => {
            const height = (day.count / max) * (CHART_HEIGHT - 4)
            return (
              <rect
                key={day.date}
                className="chart-bar"
                x={index * BAR_WIDTH + 1}
                y={CHART_HEIGHT - height}
                width={BAR_WIDTH - 2}
                height={height}
              >
                <title>{`${formatDay(day.date)}: ${day.count}`}</title>
              </rect>
            )
          })}
        </svg>
      </div>
      <div className="chart-dates" aria-hidden="true">
        <span>{formatDay(first)}</span>
        <span>{formatDay(last)}</span>
      </div>
      <p id={`${titleId}-summary`} className="chart-summary">
        {sum === 0
          ? `No submissions between ${formatDay(first)} and ${formatDay(last)}.`
          : `${sum.toLocaleString('en-US')} in the last ${CHART_DAYS} days; busiest day ${formatDay(busiest.date)} with ${busiest.count}.`}
      </p>
    </figure>
  )
}
