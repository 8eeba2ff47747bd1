import type { Kysely } from 'kysely'
import { claimsPerIntake, conversion, type Funnel, type FunnelRow } from '../../src/api/funnel.ts'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { DAY_MS } from '../../src/durations.ts'

const DAY = /^\d{4}-\d{2}-\d{2}$/
/** The longest range the page asks for: two years of days. */
const MAX_DAYS = 731

/** The range a request asks for (UTC days, both included); the last 30 days when left out. Each fault a 400. */
export function funnelRange(
  query: { from?: unknown; to?: unknown },
  now = Date.now(),
): { from: string; to: string } {
  const today = new Date(now).toISOString().slice(0, 10)
  const to = query.to === undefined || query.to === '' ? today : query.to
  const from =
    query.from === undefined || query.from === ''
      ? new Date(Date.parse(`${String(to)}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10)
      : query.from
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (typeof value !== 'string' || !DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
      throw badRequest(`"${name}" must be a day, YYYY-MM-DD`)
    }
  }
  const days = (Date.parse(`${to as string}T00:00:00Z`) - Date.parse(`${from as string}T00:00:00Z`)) / DAY_MS
  if (days < 0) throw badRequest('"from" must not be after "to"')
  if (days >= MAX_DAYS) throw badRequest(`the range is at most ${MAX_DAYS} days`)
  return { from: from as string, to: to as string }
}

/**
 * The funnel over the days from `from` to `to`: a sum of the counters the triggers keep per source, app
 * and day (funnel_days, migrations 2026_11_29_1200 and, for the fraud rate, 2026_12_09_1500), never a
 * scan of the claims. Only `apps` (those the reader may see) count; intakes count for every source.
 */
export async function readFunnel(
  db: Kysely<Database>,
  { from, to, apps }: { from: string; to: string; apps: { slug: string; name: string }[] },
): Promise<Funnel> {
  const rows = await db
    .selectFrom('funnel_days')
    .select((eb) => [
      'source',
      'app',
      eb.fn.sum<number>('intakes').as('intakes'),
      eb.fn.sum<number>('claims').as('claims'),
      eb.fn.sum<number>('confirmed').as('confirmed'),
      eb.fn.sum<number>('approved').as('approved'),
      eb.fn.sum<number>('scored').as('scored'),
      eb.fn.sum<number>('held').as('held'),
    ])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['source', 'app'])
    .execute()
  const visible = new Set(apps.map((app) => app.slug))
  const bySource = new Map<string, FunnelRow>()
  const total = emptyRow('All sources')
  const used = new Set<string>()
  for (const row of rows) {
    if (row.app !== '' && !visible.has(row.app)) continue
    let line = bySource.get(row.source)
    if (!line) bySource.set(row.source, (line = emptyRow(row.source)))
    for (const target of [line, total]) {
      if (row.app === '') {
        target.intakes += Number(row.intakes)
        continue
      }
      const claims = Number(row.claims)
      if (claims !== 0) target.claimsByApp[row.app] = (target.claimsByApp[row.app] ?? 0) + claims
      target.claims += claims
      target.confirmed += Number(row.confirmed)
      target.approved += Number(row.approved)
      target.scored += Number(row.scored)
      target.held += Number(row.held)
    }
    if (row.app !== '' && Number(row.claims) !== 0) used.add(row.app)
  }
  const sources = [...bySource.values()]
    .filter((line) => line.intakes + line.claims > 0)
    .sort((a, b) => b.intakes - a.intakes || b.claims - a.claims || a.source.localeCompare(b.source))
  return { from, to, apps: apps.filter((app) => used.has(app.slug)), sources, total }
}

/**
 * The funnel as CSV rows: a source a line, its steps, claims per intake and each step's share of the
 * claims, then its scored and held claims and the fraud rate (the held of the scored).
 */
export function funnelCsvRows(funnel: Funnel): { header: string[]; rows: (string | number)[][] } {
  const header = [
    'Source',
    'Intakes',
    ...funnel.apps.map((app) => `${app.name} Claims`),
    'Step 2 Claims',
    'Claims per Intake',
    'Confirmed',
    'Confirmed of Claims',
    'Approved',
    'Approved of Claims',
    'Scored',
    'Held',
    'Fraud Rate',
  ]
  const line = (row: FunnelRow) => [
    row.source,
    row.intakes,
    ...funnel.apps.map((app) => row.claimsByApp[app.slug] ?? 0),
    row.claims,
    claimsPerIntake(row.claims, row.intakes),
    row.confirmed,
    conversion(row.confirmed, row.claims),
    row.approved,
    conversion(row.approved, row.claims),
    row.scored,
    row.held,
    conversion(row.held, row.scored),
  ]
  return { header, rows: [...funnel.sources.map(line), line(funnel.total)] }
}

function emptyRow(source: string): FunnelRow {
  return { source, intakes: 0, claimsByApp: {}, claims: 0, confirmed: 0, approved: 0, scored: 0, held: 0 }
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
