import type {
  Batch,
  BatchCandidates,
  BatchKind,
  BatchList,
  CaseNumbersImported,
  CureRequestsSent,
  NoticeSent,
  TrackingNumbersImported,
} from '../../../src/api/filing-batches.ts'
import { fetchJson } from '../../http.ts'

const JSON_POST = {
  method: 'POST',
  headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
}

function batchesBase(slug: string): string {
  return `/api/staff/apps/${encodeURIComponent(slug)}/batches`
}

/** The approved claims that could go into the next batch of `kind`, and what keeps the others out. */
export function fetchBatchCandidates({
  slug,
  kind,
  signal,
}: {
  slug: string
  kind: BatchKind
  signal?: AbortSignal
}): Promise<BatchCandidates> {
  return fetchJson(`${batchesBase(slug)}/candidates?kind=${kind}`, { signal, cache: 'no-store' })
}

/** The app's batches, newest first. */
export function fetchBatches({ slug, signal }: { slug: string; signal?: AbortSignal }): Promise<BatchList> {
  return fetchJson(batchesBase(slug), { signal, cache: 'no-store' })
}

/** Starts a batch of every claim that can go in now; the server builds its ZIP in the background. */
export function startBatch({ slug, kind }: { slug: string; kind: BatchKind }): Promise<Batch> {
  return fetchJson(batchesBase(slug), { ...JSON_POST, body: JSON.stringify({ kind }) })
}

/** Asks each claimant named for what their claim lacks (the claim becomes deficient). */
export function sendCureRequests({
  slug,
  claimIds,
}: {
  slug: string
  claimIds: number[]
}): Promise<CureRequestsSent> {
  return fetchJson(`${batchesBase(slug)}/cure-requests`, { ...JSON_POST, body: JSON.stringify({ claimIds }) })
}

/** A notice batch went to the respondent; answers 204. */
export async function markNoticeSent({
  slug,
  batchId,
  sent,
}: {
  slug: string
  batchId: number
  sent: NoticeSent
}): Promise<void> {
  await fetchJson<unknown>(`${batchesBase(slug)}/${batchId}/sent`, {
    ...JSON_POST,
    body: JSON.stringify(sent),
  })
}

/** The provider's case-number CSV, as it is, onto a ready filing batch. */
export function importCaseNumbers({
  slug,
  batchId,
  csv,
}: {
  slug: string
  batchId: number
  csv: string
}): Promise<CaseNumbersImported> {
  return fetchJson(`${batchesBase(slug)}/${batchId}/case-numbers`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
    body: csv,
  })
}

/** The post office's certified-mail CSV (claim ID, tracking number), as it is, onto a sent notice batch. */
export function importTrackingNumbers({
  slug,
  batchId,
  csv,
}: {
  slug: string
  batchId: number
  csv: string
}): Promise<TrackingNumbersImported> {
  return fetchJson(`${batchesBase(slug)}/${batchId}/tracking-numbers`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
    body: csv,
  })
}

/** The batch's ZIP, as the browser's own download (the server names the file). */
export function batchZipHref(slug: string, batchId: number): string {
  return `${batchesBase(slug)}/${batchId}/download`
}

/** A filing batch's evidence bundles, one ZIP a row, in one ZIP. */
export function evidenceZipHref(slug: string, batchId: number): string {
  return `${batchesBase(slug)}/${batchId}/evidence`
}
