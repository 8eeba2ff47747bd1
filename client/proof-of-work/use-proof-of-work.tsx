import { useCallback, useEffect, useRef, useState } from 'react'
import { AppError } from '../../src/app-error.ts'
import { PROOF_OF_WORK_FAILED_MESSAGE } from '../../src/proof-of-work.ts'
import { useText } from '../i18n/use-text.ts'
import {
  createProofOfWorkSolver,
  isSpentProof,
  type ProofHeaders,
  type ProofOfWorkSolver,
} from './proof-of-work-solver.ts'

export interface ProofOfWork {
  /**
   * Runs a POST with a solved challenge's headers; refused as spent or expired (a payload is good
   * once), it is sent once more with a fresh one.
   */
  send<T>(post: (headers: ProofHeaders) => Promise<T>): Promise<T>
  /** Set while the browser cannot get or solve a challenge: say so, it retries by itself. */
  problem: string | undefined
}

/** Starts solving the form's proof of work as the form mounts, while the claimant types. */
export function useProofOfWork(): ProofOfWork {
  const t = useText()
  const [failed, setFailed] = useState(false)
  const solver = useRef<ProofOfWorkSolver | undefined>(undefined)
  useEffect(() => {
    const own = createProofOfWorkSolver({ onFailed: setFailed })
    solver.current = own
    return () => own.dispose()
  }, [])

  const send = useCallback(
    async <T,>(post: (headers: ProofHeaders) => Promise<T>): Promise<T> => {
      const take = async () => {
        try {
          return await solver.current!.take()
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

/** The notice of a failing proof of work; nothing while it works. */
export function ProofOfWorkProblem({ proofOfWork }: { proofOfWork: ProofOfWork }) {
  return proofOfWork.problem ? (
    <p className="alert" role="alert">
      {proofOfWork.problem}
    </p>
  ) : null
}
