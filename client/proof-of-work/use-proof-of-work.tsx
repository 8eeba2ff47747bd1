import { useCallback, useEffect, useRef, useState } from 'react'
import { AppError } from '../../src/app-error.ts'
import { PROOF_OF_WORK_FAILED_MESSAGE } from '../../src/proof-of-work.ts'
import { useText } from '../i18n/use-text.ts'
import type { ProofHeaders, ProofOfWorkSolver } from './proof-of-work-solver.ts'

export interface ProofOfWork {
  /**
   * Runs a POST with a solved challenge's headers; refused as spent or expired (a payload is good
   * once), it is sent once more with a fresh one.
   */
  send<T>(post: (headers: ProofHeaders) => Promise<T>): Promise<T>
  /** Set while the browser cannot get or solve a challenge: say so, it retries by itself. */
  problem: string | undefined
}

const RETRY_MS = 5000

/**
 * Starts solving the form's proof of work as the form mounts, while the claimant types. The solver's
 * code is a chunk of its own, fetched then: the form is drawn without waiting for it.
 */
export function useProofOfWork(): ProofOfWork {
  const t = useText()
  const [failed, setFailed] = useState(false)
  const solver = useRef<Promise<ProofOfWorkSolver> | undefined>(undefined)
  useEffect(() => {
    let isMounted = true
    let own: ProofOfWorkSolver | undefined
    let retry: ReturnType<typeof setTimeout> | undefined
    const start = () => {
      const started = import('./proof-of-work-solver.ts').then(({ createProofOfWorkSolver }) => {
        if (!isMounted) throw new Error('the form has gone')
        own = createProofOfWorkSolver({ onFailed: setFailed })
        return own
      })
      solver.current = started
      // a chunk that failed to download is asked for again, as the solver asks again for a challenge
      started.catch(() => {
        if (!isMounted || solver.current !== started) return
        setFailed(true)
        retry = setTimeout(start, RETRY_MS)
      })
    }
    start()
    return () => {
      isMounted = false
      clearTimeout(retry)
      own?.dispose()
    }
  }, [])

  const send = useCallback(
    async <T,>(post: (headers: ProofHeaders) => Promise<T>): Promise<T> => {
      const take = async () => {
        try {
          return await (await solver.current!).take()
        } catch {
          throw new AppError('PROOF_OF_WORK_MISSING', { status: 0, message: t(PROOF_OF_WORK_FAILED_MESSAGE) })
        }
      }
      try {
        return await post(await take())
      } catch (error) {
        if (!isSpentProof(error)) throw error
        return post(await take())
      }
    },
    [t],
  )
  return { send, problem: failed ? t(PROOF_OF_WORK_FAILED_MESSAGE) : undefined }
}

/** Whether a refusal means "send again with a fresh one", which the claimant need not see. */
function isSpentProof(error: unknown): boolean {
  return (
    error instanceof AppError &&
    (error.code === 'PROOF_OF_WORK_USED' || error.code === 'PROOF_OF_WORK_EXPIRED')
  )
}

/** The notice of a failing proof of work; nothing while it works. */
export function ProofOfWorkProblem({ proofOfWork }: { proofOfWork: ProofOfWork }) {
  return proofOfWork.problem ? (
    <p className="alert" role="alert">
      {proofOfWork.problem}
    </p>
  ) : null
}
