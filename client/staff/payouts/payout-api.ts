import type {
  AwardList,
  AwardRequest,
  AwardSet,
  AwardsImported,
  PayoutBatchBuilt,
  PayoutBatchView,
  PayoutItemPage,
  PayoutReconciliation,
  PayoutsPage,
  SettlementCreated,
  SettlementRequest,
  UncashedChecks,
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

const JSON_PUT = {
  method: 'PUT',
  headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
}

/** One claim's award as typed, with the costs the firm advanced on it (the decide right). */
export function setAward({ claimId, award }: { claimId: number; award: AwardRequest }): Promise<AwardSet> {
  return fetchJson(`/api/staff/claims/${claimId}/award`, { ...JSON_PUT, body: JSON.stringify(award) })
}

/** The costs the firm advanced on an awarded claim, the award left as it is (decide or payments right). */
export function setAwardCosts({ claimId, costs }: { claimId: number; costs: string }): Promise<AwardSet> {
  return fetchJson(`/api/staff/claims/${claimId}/award/costs`, {
    ...JSON_PUT,
    body: JSON.stringify({ costs }),
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

/** What a payout batch built now would take, and the app's batches, newest first. */
export function fetchPayouts({ slug, signal }: { slug: string; signal?: AbortSignal }): Promise<PayoutsPage> {
  return fetchJson(`${appBase(slug)}/payouts`, { signal, cache: 'no-store' })
}

/** Builds a batch of every claim that can be paid now; `costs` ("120.00") is spread over its claims. */
export function buildPayoutBatch({
  slug,
  costs,
}: {
  slug: string
  costs: string
}): Promise<PayoutBatchBuilt> {
  return fetchJson(`${appBase(slug)}/payouts`, { ...JSON_POST, body: JSON.stringify({ costs }) })
}

function batchBase(batchId: number): string {
  return `/api/staff/payout-batches/${batchId}`
}

/** The checker's step: another account with the payments right approves, and the batch is sent. */
export function approvePayoutBatch(batchId: number): Promise<PayoutBatchView> {
  return fetchJson(`${batchBase(batchId)}/approve`, {
    method: 'POST',
    headers: { Accept: 'application/json' },
  })
}

/** A page of a batch's items, each claim's split and status, numbers masked, with the count of all. */
export function fetchPayoutItems({
  batchId,
  page,
  pageSize,
  signal,
}: {
  batchId: number
  page: number
  pageSize: number
  signal?: AbortSignal
}): Promise<PayoutItemPage> {
  return fetchJson(`${batchBase(batchId)}/items?page=${page}&pageSize=${pageSize}`, {
    signal,
    cache: 'no-store',
  })
}

/** The app's checks not cashed within its uncashedCheckDays, the oldest first, payees masked. */
export function fetchUncashedChecks({
  slug,
  signal,
}: {
  slug: string
  signal?: AbortSignal
}): Promise<UncashedChecks> {
  return fetchJson(`${appBase(slug)}/payouts/uncashed-checks`, { signal, cache: 'no-store' })
}

/** A batch's trust figures, from the trust entries and again from the awards and items. */
export function fetchBatchReconciliation({
  batchId,
  signal,
}: {
  batchId: number
  signal?: AbortSignal
}): Promise<PayoutReconciliation> {
  return fetchJson(`${batchBase(batchId)}/reconciliation`, { signal, cache: 'no-store' })
}

/** The files for the bank, as the browser's own downloads (the server names each file). */
export const PAYOUT_FILES = {
  ach: { path: 'ach.txt', label: 'ACH file (NACHA)' },
  checks: { path: 'checks.csv', label: 'Check register (CSV)' },
  positivePay: { path: 'positive-pay.csv', label: 'Positive pay file (CSV)' },
} as const

export function payoutFileHref(batchId: number, file: keyof typeof PAYOUT_FILES): string {
  return `${batchBase(batchId)}/${PAYOUT_FILES[file].path}`
}

/** A claimant's payment statement (PDF): their split, the fee their agreement states, how they are paid. */
export function payoutStatementHref(claimId: number): string {
  return `/api/staff/claims/${claimId}/payout-statement.pdf`
}
