import type {
  BulkMoveChoices,
  BulkMoveJob,
  BulkMovePreview,
  BulkMoveRequest,
  BulkMoveStarted,
} from '../../../src/api/bulk-moves.ts'
import { fetchJson } from '../../http.ts'

export type { BulkMoveChoices, BulkMoveJob, BulkMovePreview, BulkMoveRequest }

const JSON_POST = {
  method: 'POST',
  headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
}

function bulkBase(slug: string): string {
  return `/api/staff/apps/${encodeURIComponent(slug)}/bulk-moves`
}

/** The statuses a bulk move of the app's claims can go to, and the reasons. */
export function fetchBulkMoveChoices({
  slug,
  signal,
}: {
  slug: string
  signal?: AbortSignal
}): Promise<BulkMoveChoices> {
  return fetchJson(`${bulkBase(slug)}/choices`, { signal, cache: 'no-store' })
}

/** How many of the selected claims would move now, from which statuses, and how many cannot. */
export function previewBulkMove({
  slug,
  move,
}: {
  slug: string
  move: BulkMoveRequest
}): Promise<BulkMovePreview> {
  return fetchJson(`${bulkBase(slug)}/preview`, { ...JSON_POST, body: JSON.stringify(move) })
}

/** Starts the job; the selection is fixed now. */
export function startBulkMove({
  slug,
  move,
}: {
  slug: string
  move: BulkMoveRequest
}): Promise<BulkMoveStarted> {
  return fetchJson(bulkBase(slug), { ...JSON_POST, body: JSON.stringify(move) })
}

export function fetchBulkMoveJob({ id, signal }: { id: number; signal?: AbortSignal }): Promise<BulkMoveJob> {
  return fetchJson(`/api/staff/bulk-moves/${id}`, { signal, cache: 'no-store' })
}
