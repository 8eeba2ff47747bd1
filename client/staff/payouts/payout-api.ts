import type {
  AwardList,
  AwardsImported,
  SettlementCreated,
  SettlementRequest,
} from '../../../src/api/payouts.ts'
import { fetchJson } from '../../http.ts'

const JSON_POST = {
  method: 'POST',
  headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
}

function appBase(slug: string): string {
  return `/api/staff/apps/${encodeURIComponent(slug)}`
}

/** A page of the app's awards, the newest claim first, with the totals of every award. */
export function fetchAwards({
  slug,
  page,
  pageSize,
  signal,
}: {
  slug: string
  page: number
  pageSize: number
  signal?: AbortSignal
}): Promise<AwardList> {
  return fetchJson(`${appBase(slug)}/awards?page=${page}&pageSize=${pageSize}`, { signal, cache: 'no-store' })
}

/** A provider's award CSV, as it is: every line lands, or none does. */
export function importAwards({ slug, csv }: { slug: string; csv: string }): Promise<AwardsImported> {
  return fetchJson(`${appBase(slug)}/awards/import`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
    body: csv,
  })
}

/** A settlement shared among the app's filed claims (every one, as no claims are named). */
export function createSettlement({
  slug,
  settlement,
}: {
  slug: string
  settlement: SettlementRequest
}): Promise<SettlementCreated> {
  return fetchJson(`${appBase(slug)}/settlements`, { ...JSON_POST, body: JSON.stringify(settlement) })
}
