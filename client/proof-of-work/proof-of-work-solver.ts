import {
  encodeProofOfWork,
  PROOF_OF_WORK_HEADER,
  PROOF_OF_WORK_LIFETIME_MS,
  type ProofOfWorkChallenge,
} from '../../src/proof-of-work.ts'
import { errorFromResponse } from '../http.ts'

/** The headers a POST carries: the solved challenge, or none when the server has the check off. */
export type ProofHeaders = Record<string, string>

export interface ProofOfWorkSolver {
  /** The solved challenge (usually ready), then a fresh one is solved at once: each is spent once. */
  take(): Promise<ProofHeaders>
  dispose(): void
}

interface Ready {
  headers: ProofHeaders
  /** performance.now() when the challenge was fetched; Infinity when the check is off. */
  fetchedAt: number
}

// well inside the server's lifetime, whatever the device's clock says: a fresh one takes a second
const USABLE_MS = PROOF_OF_WORK_LIFETIME_MS - 5 * 60 * 1000
const RETRY_MS = 5000

/**
 * Fetches a challenge and solves it in a module worker (same-origin, as the CSP asks) while the
 * claimant types. `onFailed(true)` when a challenge cannot be fetched or solved (it then retries every
 * few seconds), `onFailed(false)` once one is solved.
 */
export function createProofOfWorkSolver({
  onFailed,
}: {
  onFailed(failed: boolean): void
}): ProofOfWorkSolver {
  let worker: Worker | undefined
  let next: Promise<Ready> | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  let isDisposed = false

  const start = (): Promise<Ready> => {
    clearTimeout(retry)
    const attempt = solveOne()
    next = attempt
    attempt.then(
      () => onFailed(false),
      () => {
        if (isDisposed || next !== attempt) return
        onFailed(true)
        retry = setTimeout(() => {
          if (next === attempt) void start()
        }, RETRY_MS)
      },
    )
    return attempt
  }

  const solveOne = async (): Promise<Ready> => {
    if (isDisposed) throw new Error('the form has gone')
    const fetchedAt = performance.now()
    const response = await fetch('/api/proof-of-work', { cache: 'no-store' })
    if (response.status === 204) return { headers: {}, fetchedAt: Infinity }
    if (!response.ok) throw await errorFromResponse(response)
    const challenge = (await response.json()) as ProofOfWorkChallenge
    const number = await solve(challenge)
    if (number === null) throw new Error('no number solves the challenge')
    return { headers: { [PROOF_OF_WORK_HEADER]: encodeProofOfWork(challenge, number) }, fetchedAt }
  }

  const solve = (challenge: ProofOfWorkChallenge): Promise<number | null> => {
    // built by Vite into a file of its own on this origin: the CSP's default-src 'self' covers it
    worker ??= new Worker(new URL('./solve-worker.ts', import.meta.url), { type: 'module' })
    const own = worker
    return new Promise((resolve, reject) => {
      own.onmessage = (event: MessageEvent<{ number: number | null }>) => resolve(event.data.number)
      own.onerror = () => {
        // a worker that failed to load fails every time: the next attempt starts a new one
        own.terminate()
        if (worker === own) worker = undefined
        reject(new Error('the proof-of-work worker failed'))
      }
      own.postMessage(challenge)
    })
  }

  start()
  return {
    async take() {
      let ready = await (next ?? start()).catch(() => start())
      if (performance.now() - ready.fetchedAt > USABLE_MS) ready = await start()
      if (ready.fetchedAt !== Infinity) void start()
      return ready.headers
    },
    dispose() {
      isDisposed = true
      clearTimeout(retry)
      worker?.terminate()
    },
  }
}
