import { solveProofOfWork, type ProofOfWorkChallenge } from '../../src/proof-of-work.ts'

/** Solves each challenge posted to it off the page's thread, so typing stays smooth meanwhile. */
self.onmessage = (event: MessageEvent<ProofOfWorkChallenge>) => {
  self.postMessage({ number: solveProofOfWork(event.data) ?? null })
}
