import type { BulkMoveJob, BulkMoveStarted } from '../../../src/api/bulk-moves.ts'
import {
  respondentListPath,
  type RespondentList,
  type RespondentListImported,
} from '../../../src/api/respondent-list.ts'
import { fetchJson } from '../../http.ts'

/** The company's CSV, as it is, matched against the app's claims: those it names are flagged. */
export function importRespondentList({
  slug,
  list,
  csv,
}: {
  slug: string
  list: RespondentList
  csv: string
}): Promise<RespondentListImported> {
  return fetchJson(respondentListPath(slug, list), {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'text/csv' },
    body: csv,
  })
}

/** Asks the claims the list named to prove their account: a bulk move, which runs in the background. */
export function askForAccountProof({
  slug,
  claimIds,
}: {
  slug: string
  claimIds: number[]
}): Promise<BulkMoveStarted> {
  return fetchJson(`/api/staff/apps/${encodeURIComponent(slug)}/batches/respondent-list/account-proof`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ claimIds }),
  })
}

/** How far that move has come. */
export function fetchMoveJob({ id, signal }: { id: number; signal?: AbortSignal }): Promise<BulkMoveJob> {
  return fetchJson(`/api/staff/bulk-moves/${id}`, { signal, cache: 'no-store' })
}
