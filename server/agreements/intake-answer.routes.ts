import express, { Router, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { IntakeAnswered, IntakeAnswerRequest } from '../../src/api/agreements.ts'
import { DOWNLOAD_KEY_EXPIRED_MESSAGE, INTAKE_NOT_FOUND_MESSAGE } from '../../src/lookup-messages.ts'
import { confirmRecord } from '../confirmations/confirm-by-link.ts'
import { disownRecord } from '../confirmations/disown-by-link.ts'
import { undoDisownRecord } from '../confirmations/undo-disown.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { Languages } from '../forms/languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import type { PublicDoor } from '../public-doors.ts'
import { findDownloadKey, isLinkToken } from './agreement-link.repository.ts'
import { findOwnAgreements } from './own-agreements.ts'
import { signerOf } from '../platform/signer.ts'

const ANSWERS: readonly IntakeAnswerRequest['answer'][] = ['confirm', 'not-me', 'undo-not-me']

/**
 * The claimant's opened page of agreements answers for a main-form intake sent with their e-mail and
 * phone: "Confirm it was you" makes its address their claims', "This wasn't me" unties it from them
 * (taken back within a day with "undo-not-me").
 * The opened link's key stands for the e-mail link here as the /confirm page's token does.
 */
export function intakeAnswerRoutes({
  db,
  evidenceKey,
  languages,
  guardPost,
}: {
  db: Kysely<Database>
  languages: Languages
  evidenceKey: Buffer
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
}): Router {
  const router = Router({ caseSensitive: true })

  // counted with the opens, like the close: each answer needs the key an opened link gave
  router.post(
    '/api/agreements/intake-answer',
    guardPost('open'),
    express.json({ limit: '1kb' }),
    async (req, res) => {
      const { key, intakeId, answer } = parseAnswer(req.body)
      const contact = await findDownloadKey(db, { key, now: Date.now() })
      if (!contact) throw new AppError('LINK_EXPIRED', { status: 410, message: DOWNLOAD_KEY_EXPIRED_MESSAGE })
      // one answer for another claimant's intake and for none at all: the key learns nothing of either
      const { intakes } = await findOwnAgreements(db, contact, { intakeId })
      if (intakes.length === 0) {
        throw new AppError('AGREEMENT_NOT_FOUND', { status: 404, message: INTAKE_NOT_FOUND_MESSAGE })
      }
      const target = { of: 'intake', id: intakeId } as const
      const signer = signerOf(req)
      const answered: IntakeAnswered = await retryWhileLocked(() =>
        db.transaction().execute((trx): Promise<IntakeAnswered> => {
          if (answer === 'confirm') return confirmRecord(trx, { evidenceKey, target, confirmer: signer })
          if (answer === 'not-me') return disownRecord(trx, { evidenceKey, target, claimant: signer })
          const t = languages.t(requestLocale(req))
          return undoDisownRecord(trx, { evidenceKey, target, claimant: signer, t })
        }),
      )
      res.set('Cache-Control', 'no-store').json(answered)
    },
  )
  return router
}

function parseAnswer(body: unknown): IntakeAnswerRequest {
  const { key, intakeId, answer } = (body ?? {}) as Record<string, unknown>
  const problems: string[] = []
  if (!isLinkToken(key))
    problems.push('send "key", the download key that opening the link from the e-mail gave')
  if (typeof intakeId !== 'number' || !Number.isSafeInteger(intakeId) || intakeId <= 0) {
    problems.push('send "intakeId", the number of the main-form submission answered for')
  }
  if (!ANSWERS.includes(answer as IntakeAnswerRequest['answer'])) {
    problems.push('"answer" must be "confirm", "not-me" or "undo-not-me"')
  }
  if (problems.length > 0) throw new AppError('BAD_REQUEST', { status: 400, message: problems.join('; ') })
  return { key: key as string, intakeId: intakeId as number, answer: answer as IntakeAnswerRequest['answer'] }
}
