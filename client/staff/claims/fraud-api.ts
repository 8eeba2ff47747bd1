import type { ClaimFraud, FraudCluster, NotFraudRequest } from '../../../src/api/fraud.ts'
import { fetchJson } from '../../http.ts'

export type { ClaimFraud, FraudCluster }

/** A claim's fraud score, its reasons and its "Not fraud" decision. */
export function fetchClaimFraud({ id, signal }: { id: number; signal?: AbortSignal }): Promise<ClaimFraud> {
  return fetchJson(`/api/staff/claims/${id}/fraud`, { signal, cache: 'no-store' })
}

/** Every claim sharing an identity key with this one, of the apps the account may see. */
export function fetchFraudCluster({
  id,
  signal,
}: {
  id: number
  signal?: AbortSignal
}): Promise<FraudCluster> {
  return fetchJson(`/api/staff/claims/${id}/cluster`, { signal, cache: 'no-store' })
}

/** A decider's "Not fraud", with the note the server requires; answers the claim's fraud as it is now. */
export function clearFraud({ id, note }: { id: number } & NotFraudRequest): Promise<ClaimFraud> {
  return fetchJson(`/api/staff/claims/${id}/not-fraud`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ note } satisfies NotFraudRequest),
  })
}
