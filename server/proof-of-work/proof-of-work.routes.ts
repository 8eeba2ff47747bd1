import { Router } from 'express'
import type { ProofOfWork } from './proof-of-work.ts'

/**
 * GET /api/proof-of-work: a fresh ALTCHA challenge for the page to solve while the claimant types,
 * never cached (each is spent once); 204 when PROOF_OF_WORK=off, and the page then sends none.
 */
export function proofOfWorkRoutes(proofOfWork: ProofOfWork | undefined): Router {
  const router = Router({ caseSensitive: true })
  router.get('/api/proof-of-work', async (_req, res) => {
    res.set('Cache-Control', 'no-store')
    if (!proofOfWork) {
      res.status(204).end()
      return
    }
    res.json(await proofOfWork.challenge())
  })
  return router
}
