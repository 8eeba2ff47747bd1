import type { Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import type { Step2Link } from '../../src/journey-config.ts'
import { DEFAULT_LOCALE, parseLocale, translator, type Locale, type Translator } from '../../src/translate.ts'
import { issueConfirmationLink } from '../confirmations/confirmation-links.ts'
import type { Database } from '../db/database.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import type { Logger } from '../logger.ts'
import { signedAgreementDocument } from './agreement-document.ts'
import type { AgreementMailer } from './agreement-mailer.ts'
import type { AgreementPdfs } from './agreement-pdfs.ts'
import { findAgreementByClaimId } from './agreement-record.repository.ts'
import { claimSignedRecord } from './signed-record.ts'

export const SEND_AGREEMENT_COPY = 'send-agreement-copy'

// copies under way at once: while the PDF thread makes one copy's PDF, the event loop writes the others'
// mail and rows, so the thread never waits on a disk's sync or the database
const IN_FLIGHT = 3
// claims come first (the runner's quietMoment): each copy makes a sealed PDF, and a surge of claims
// needs the cores more than a courtesy e-mail does; but no copy waits longer than this
const MAX_WAIT_MS = 10 * 60_000
// copies count as going out (sending()) this long after the last one was done: the gap between batches
const SENDING_GAP_MS = 1000

/**
 * Sends a claimant the e-mail copy of the agreement they signed, queued with the claim: the signed
 * document as HTML and as a sealed PDF, the link to confirm it was them, and the apps still without a
 * claim. Marked sent only once the mailer has it; a copy whose PDF or mail fails is retried.
 */
export function sendAgreementCopyJob({
  db,
  mailer,
  forms,
  agreementPdfs,
  translators = () => translator(undefined),
  publicUrl,
  nextSteps,
  logger,
}: {
  db: Kysely<Database>
  mailer: AgreementMailer
  forms: Map<string, FormConfig>
  /** Makes the sealed PDF each copy carries beside the HTML. */
  agreementPdfs: AgreementPdfs
  /** Each language's texts: a copy is written in the language its agreement was signed in. */
  translators?: (locale: Locale) => Translator
  /** PUBLIC_URL: the confirmation link's origin; unset, the one stored with each claim (linkOrigin). */
  publicUrl?: string | undefined
  /** The apps the claim's intake chose that still have no claim (claimNextSteps): the copy lists them. */
  nextSteps?: ((claimId: number) => Promise<Step2Link[]>) | undefined
  logger: Logger
}): RowJobHandler<'agreement_copies'> & {
  /** Whether copies are going out now (one under way, or one done a moment ago): the screenshot checks let them go first. */
  sending(): boolean
} {
  let underWayCount = 0
  let lastDoneAt = Number.NEGATIVE_INFINITY

  return {
    kind: SEND_AGREEMENT_COPY,
    table: 'agreement_copies',
    where: (eb) => eb('sent_at', 'is', null),
    pollMs: 10_000,
    inFlight: IN_FLIGHT,
    waitsForQuiet: true,
    maxWaitMs: MAX_WAIT_MS,
    sending: () => underWayCount > 0 || Date.now() - lastDoneAt < SENDING_GAP_MS,
    async run({ row: copy, attempts, now, retryAt, end }) {
      underWayCount++
      try {
        const claimId = Number(copy.claim_id)
        // null for a copy queued before links were made, without PUBLIC_URL: it goes without one
        const linkOrigin = publicUrl ?? copy.link_origin
        const row = await findAgreementByClaimId(db, claimId)
        if (!row) {
          await db.deleteFrom('agreement_copies').where('claim_id', '=', claimId).execute()
          return 'ended'
        }
        const appName = forms.get(row.app)?.displayName ?? row.app
        const locale = parseLocale(row.locale) ?? DEFAULT_LOCALE
        const t = translators(locale)
        const signed = signedAgreementDocument(claimSignedRecord(row, appName), t)
        const pdf = await agreementPdfs
          .make({ html: signed.html, title: signed.title, audit: signed.audit })
          .catch((error: unknown) => {
            logger.warn(
              { claimId, err: error instanceof Error ? error.message : String(error) },
              'agreement PDF not made',
            )
            return undefined
          })
        const confirmUrl =
          pdf === undefined || linkOrigin === null
            ? undefined
            : await issueConfirmationLink(db, {
                target: { of: 'claim', id: claimId },
                origin: linkOrigin,
                locale,
              })
        const steps = pdf === undefined || linkOrigin === null || !nextSteps ? [] : await nextSteps(claimId)
        const sent =
          pdf !== undefined &&
          (await mailer.send({
            to: row.email,
            claimantName: `${row.firstName} ${row.lastName}`,
            appName,
            filename: signed.fileName('html'),
            html: signed.document,
            pdf: { filename: signed.fileName('pdf'), content: pdf },
            confirmUrl,
            claimId,
            nextSteps: steps.map((step) => ({ appName: step.appName, url: `${linkOrigin}${step.path}` })),
            t,
          }))
        if (!sent) {
          logger.warn(
            { claimId, attempt: attempts, retryInMs: (retryAt ?? now) - now },
            'agreement copy will be retried',
          )
          return 'retry'
        }
        await db.transaction().execute(async (trx) => {
          if (await end(trx)) {
            await trx
              .updateTable('agreement_copies')
              .set({ sent_at: Date.now() })
              .where('claim_id', '=', claimId)
              .execute()
          }
        })
        return 'ended'
      } finally {
        underWayCount--
        lastDoneAt = Date.now()
      }
    },
  }
}
