import type { Kysely } from 'kysely'
import type { FormConfig } from '../../src/form-config.ts'
import type { Step2Link } from '../../src/journey-config.ts'
import type { Database } from '../db/database.ts'
import type { Logger } from '../logger.ts'
import { backgroundLoop } from '../background-loop.ts'
import type { RequestActivity } from '../request-activity.ts'
import { DEFAULT_LOCALE, parseLocale, translator, type Locale, type Translator } from '../../src/translate.ts'
import { signedAgreementDocument } from './agreement-document.ts'
import { claimSignedRecord } from './signed-record.ts'
import type { AgreementMailer } from './agreement-mailer.ts'
import type { AgreementPdfs } from './agreement-pdfs.ts'
import { findAgreementByClaimId } from './agreement-record.repository.ts'
import { issueConfirmationLink } from '../confirmations/confirmation-links.ts'

/** Sends the queued e-mail copies of signed agreements, in the background of the server. */
export interface AgreementCopies {
  /** A copy was queued: look now rather than at the next poll. */
  wake(): void
  /** Resolves once no copy is due (or the sender is stopped). */
  settled(): Promise<void>
  /** Whether copies are going out now (one under way, or one done a moment ago): the screenshot checks let them go first. */
  sending(): boolean
  stop(): Promise<void>
}

// the queue is also read every so often: copies queued by another server process, retries that came due
const POLL_MS = 10_000
// a sender that dies holding a copy (crash, deploy) leaves it to be taken again after this
const LEASE_MS = 5 * 60_000
// after a failed send (mail server down, address refused): 1 min, 5 min, 30 min, 2 h, then every 12 h
const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 12 * 3600_000]
const BATCH = 50
// copies under way at once: while the PDF thread makes one copy's PDF, the event loop writes the others'
// mail and rows, so the thread never waits on a disk's sync or the database
const IN_FLIGHT = 3
// claims come first (backgroundLoop's quietMoment): each copy makes a sealed PDF, and a surge of claims
// needs the cores more than a courtesy e-mail does; but no copy waits longer than this
const MAX_WAIT_MS = 10 * 60_000
// copies count as going out (sending()) this long after the last one was done: the gap between batches
const SENDING_GAP_MS = 1000

/**
 * Oldest first, a few under way at once (IN_FLIGHT). Each copy is taken by pushing its due time past a
 * lease, in one conditional update, so two server processes on one database never both send it; it is
 * marked sent only once the mailer has it. While the server's requests keep coming (a burst of claims)
 * the next copy waits for a quiet moment, up to ten minutes after it was queued; the screenshot checks
 * wait for the copies (sending()).
 */
export function createAgreementCopies({
  db,
  mailer,
  forms,
  agreementPdfs,
  translators = () => translator(undefined),
  publicUrl,
  nextSteps,
  logger,
  requests,
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
  /** The server's requests, which the copies wait for (backgroundLoop's quietMoment). */
  requests?: RequestActivity | undefined
}): AgreementCopies {
  const loop = backgroundLoop({
    work: sendDue,
    pollMs: POLL_MS,
    logger,
    failure: 'agreement copies failed',
    requests,
  })
  let underWayCount = 0
  let lastDoneAt = Number.NEGATIVE_INFINITY

  async function sendDue(): Promise<void> {
    for (;;) {
      const due = await db
        .selectFrom('agreement_copies')
        .select(['claim_id', 'due_at', 'attempts', 'link_origin'])
        .where('sent_at', 'is', null)
        .where('due_at', '<=', Date.now())
        .orderBy('due_at')
        .limit(BATCH)
        .execute()
      if (due.length === 0) return
      const underWay = new Set<Promise<void>>()
      let failure: { error: unknown } | undefined
      for (const copy of due) {
        await loop.quietMoment(Number(copy.due_at) + MAX_WAIT_MS)
        if (loop.isStopped() || failure) break
        const sending: Promise<void> = sendCopy({
          claimId: Number(copy.claim_id),
          dueAt: Number(copy.due_at),
          attempts: copy.attempts,
          linkOrigin: publicUrl ?? copy.link_origin,
        })
          .catch((error: unknown) => {
            failure ??= { error }
          })
          .finally(() => {
            underWay.delete(sending)
            underWayCount--
            lastDoneAt = Date.now()
          })
        underWay.add(sending)
        underWayCount++
        if (underWay.size >= IN_FLIGHT) await Promise.race(underWay)
      }
      await Promise.all(underWay)
      // a failed copy (the database gone) fails the run, as one alone did: the next poll tries again
      if (failure) throw failure.error
      if (loop.isStopped()) return
    }
  }

  async function sendCopy({
    claimId,
    dueAt,
    attempts,
    linkOrigin,
  }: {
    claimId: number
    dueAt: number
    attempts: number
    /** Null for a copy queued before links were made, without PUBLIC_URL: it goes without one. */
    linkOrigin: string | null
  }) {
    const taken = await db
      .updateTable('agreement_copies')
      .set({ due_at: Date.now() + LEASE_MS, attempts: attempts + 1 })
      .where('claim_id', '=', claimId)
      .where('due_at', '=', dueAt)
      .where('sent_at', 'is', null)
      .executeTakeFirst()
    if (Number(taken.numUpdatedRows) !== 1) return // another process took it
    const row = await findAgreementByClaimId(db, claimId)
    if (!row) {
      await db.deleteFrom('agreement_copies').where('claim_id', '=', claimId).execute()
      return
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
    const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length - 1)]!
    await db
      .updateTable('agreement_copies')
      .set(sent ? { sent_at: Date.now() } : { due_at: Date.now() + delay })
      .where('claim_id', '=', claimId)
      .execute()
    if (!sent)
      logger.warn({ claimId, attempt: attempts + 1, retryInMs: delay }, 'agreement copy will be retried')
  }

  return {
    wake: loop.wake,
    settled: loop.settled,
    sending: () => underWayCount > 0 || Date.now() - lastDoneAt < SENDING_GAP_MS,
    stop: loop.stop,
  }
}
