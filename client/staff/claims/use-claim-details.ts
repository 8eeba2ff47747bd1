import { fetchClaim } from '../shared/staff-api.ts'
import { useOpenDetails } from '../shared/use-open-details.ts'

/**
 * The claim whose details are open (GET /api/staff/claims/:id); a claim of another app is refused, as
 * this dashboard shows only its own.
 */
export function useClaimDetails({ app, onUnauthorized }: { app: string; onUnauthorized: () => void }) {
  return useOpenDetails({
    load: async (id, signal) => {
      const claim = await fetchClaim({ id, signal })
      if (claim.app !== app) throw new Error(`claim ${id} belongs to another app's dashboard`)
      return claim
    },
    onUnauthorized,
  })
}
