import crypto from 'node:crypto'
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely'
import type { SendMailOptions } from 'nodemailer'
import { CURE_PAGE_PATH } from '../../src/api/cure.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { cureMoves, type ReviewConfig, type Reviews } from '../../src/review-config.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale, type Translator } from '../../src/translate.ts'
import { escapeHtml, firmMail, mailButton } from '../journey/firm-mail.ts'
import { backgroundLoop } from '../jobs/background-loop.ts'
import { tokenHash } from '../confirmations/confirmation-links.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { errorCode, type Logger } from '../logger.ts'
import type { RequestActivity } from '../request-activity.ts'
import { writeAuditEntry } from '../staff/audit-log.ts'
import { claimantTimeZone } from './cure-deadline.ts'
import { recordMove } from './move-claim.ts'
import { DAY_MS } from '../../src/durations.ts'

/** The second reminder goes this long before the period ends. */
const LAST_REMINDER_BEFORE_END_MS = 2 * DAY_MS
/** The audit log's client address for what the server does on its own. */
export const SERVER_ACTOR = { clientAddress: 'server', accountId: null, actor: 'server' }

/**
 * The cure periods' mail and ends: a deficiency notice as soon as a claim is made deficient, a
 * reminder at half the period and another two days before its end, each with a link of its own; at
 * the end, a claim still deficient moves to not_cured. Each step is claimed in the database before its
 * e-mail goes, so several server processes never send one twice, and handed back if the e-mail fails.
 */
export interface ClaimCures {
  /** A claim was made deficient: send its notice now. */
  wake(): void
  /** Does what is due at `now` (tests move the clock), returning when nothing more is. */
  runDue(now?: number): Promise<void>
  settled(): Promise<void>
  stop(): Promise<void>
}

export function createClaimCures({
  db,
  reviews,
  forms,
  evidenceKey,
  deliver,
  from,
  translators,
  publicUrl,
  logger,
  requests,
  pollMs = 60_000,
}: {
  db: Kysely<Database>
  reviews: Reviews
  forms: Map<string, FormConfig>
  evidenceKey: Buffer
  /** The site's one mail path (mailDelivery). */
  deliver: (message: SendMailOptions) => Promise<void>
  from: string
  translators: (locale: Locale) => Translator
  /** PUBLIC_URL: the links' origin when set; otherwise the one the reviewer reached the site by. */
  publicUrl?: string | undefined
  logger: Logger
  requests?: RequestActivity | undefined
  pollMs?: number
}): ClaimCures {
  const runDue = async (now = Date.now()) => {
    for (;;) {
      const due = await db
        .selectFrom('claim_cures')
        .innerJoin('claims', 'claims.id', 'claim_cures.claim_id')
        .select([
          'claim_cures.id',
          'claim_cures.claim_id',
          'claim_cures.app',
          'claim_cures.started_at',
          'claim_cures.expires_at',
          'claim_cures.notices_sent',
          'claim_cures.link_origin',
          'claims.review_status',
          'claims.review_version',
        ])
        .where('claim_cures.ended_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('claim_cures.notices_sent', '=', 0),
            eb('claim_cures.expires_at', '<=', now),
            eb.and([
              eb('claim_cures.notices_sent', '=', 1),
              // half the period gone: started + (expires - started) / 2 <= now
              sql<SqlBool>`claim_cures.started_at + claim_cures.expires_at <= ${now * 2}`,
            ]),
            eb.and([
              eb('claim_cures.notices_sent', '=', 2),
              eb('claim_cures.expires_at', '<=', now + LAST_REMINDER_BEFORE_END_MS),
            ]),
          ]),
        )
        .orderBy('claim_cures.id')
        .limit(100)
        .execute()
      if (due.length === 0) return
      for (const cure of due) {
        if (Number(cure.expires_at) <= now) await endCure(cure, now)
        else await sendNotice(cure, now)
      }
      if (due.length < 100) return
    }
  }

  /** A period over: the claim moves to not_cured if it is still deficient, and the cure ends either way. */
  const endCure = async (
    cure: { id: number; claim_id: number; app: string; review_status: string; review_version: number },
    now: number,
  ) => {
    const review = reviews(cure.app)
    const notCured = cureMoves(review, cure.review_status)?.notCured
    await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const ended = await trx
          .updateTable('claim_cures')
          .set({ ended_at: now })
          .where('id', '=', cure.id)
          .where('ended_at', 'is', null)
          .executeTakeFirst()
        if (Number(ended.numUpdatedRows) !== 1 || notCured === undefined) return
        await recordMove(trx, {
          evidenceKey,
          review,
          claim: {
            id: Number(cure.claim_id),
            app: cure.app,
            status: cure.review_status,
            version: Number(cure.review_version),
          },
          to: notCured,
          by: SERVER_ACTOR,
          mover: 'system',
          at: now,
        })
      }),
    ).catch((error: unknown) => {
      // moved meanwhile (cured a moment ago): the next run finds the cure ended
      logger.warn({ claimId: Number(cure.claim_id), err: errorCode(error) }, 'cure period end not recorded')
    })
  }

  const sendNotice = async (
    cure: {
      id: number
      claim_id: number
      app: string
      notices_sent: number
      expires_at: number
      link_origin: string
    },
    now: number,
  ) => {
    const sent = Number(cure.notices_sent)
    let token = ''
    const claimed = await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const taken = await trx
          .updateTable('claim_cures')
          .set({ notices_sent: sent + 1 })
          .where('id', '=', cure.id)
          .where('notices_sent', '=', sent)
          .where('ended_at', 'is', null)
          .executeTakeFirst()
        if (Number(taken.numUpdatedRows) !== 1) return false
        token = await issueCureLink(trx, cure.id, now)
        return true
      }),
    )
    if (!claimed) return
    const claim = await db
      .selectFrom('claims')
      .select(['claims.first_name', 'claims.email', 'claims.locale'])
      .where('claims.id', '=', cure.claim_id)
      .executeTakeFirstOrThrow()
    const moves = await db
      .selectFrom('claim_moves')
      .select(['reason', 'reason_text'])
      .where('id', '=', cure.id)
      .execute()
    const locale = parseLocale(claim.locale) ?? DEFAULT_LOCALE
    const t = translators(locale)
    const lang = locale === DEFAULT_LOCALE ? '' : `?lang=${locale}`
    const url = `${publicUrl ?? cure.link_origin}${CURE_PAGE_PATH}${lang}#token=${token}`
    const problems = moves.map(({ reason, reason_text }) =>
      reasonText(reviews(cure.app), reason, reason_text, locale),
    )
    const appName = forms.get(cure.app)?.displayName ?? cure.app
    // the period ends as the last day ends in the claimant's zone (cureDeadline): that day, named there
    const date = new Intl.DateTimeFormat(locale, {
      dateStyle: 'long',
      timeZone: await claimantTimeZone(db, Number(cure.claim_id)),
    }).format(new Date(Number(cure.expires_at)))
    const what = sent === 0 ? 'notice' : `reminder ${sent}`
    const message = firmMail({
      from,
      to: claim.email,
      t,
      subject:
        sent === 0
          ? t('Your {app} claim needs a correction', { app: appName })
          : t('Reminder: your {app} claim still needs a correction', { app: appName }),
      paragraphs: [
        t('Hello {name},', { name: claim.first_name }),
        t('We reviewed your {app} claim. Before we can go on, it needs a correction:', { app: appName }),
        ...problems,
        t('Please fix it by {date} with the button below, which opens only your claim.', { date }),
        // a button, not the 80-character address, which would widen the e-mail past a phone's screen; the
        // address follows in small type that wraps, for a mail program that shows no button
        {
          text: url,
          html: `${mailButton({ label: t('Fix my claim'), url })}<br><span style="display:block;margin-top:10px;font-size:12px;color:#4b5563;overflow-wrap:anywhere;word-break:break-all">${escapeHtml(t('If the button does not work, copy this address into your browser:'))} ${escapeHtml(url)}</span>`,
        },
        t('If you do not, your claim cannot go on.'),
      ],
    })
    try {
      await deliver(message)
    } catch (error) {
      // handed back: the next run sends it again
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('claim_cure_links').where('token_hash', '=', tokenHash(token)).execute()
        await trx
          .updateTable('claim_cures')
          .set({ notices_sent: sent })
          .where('id', '=', cure.id)
          .where('notices_sent', '=', sent + 1)
          .execute()
      })
      logger.warn({ claimId: Number(cure.claim_id), err: errorCode(error) }, `cure ${what} not sent`)
      return
    }
    await retryWhileLocked(() =>
      db.transaction().execute((trx) =>
        writeAuditEntry(trx, evidenceKey, {
          ...SERVER_ACTOR,
          accountId: undefined,
          app: cure.app,
          action: 'cure_notice_sent',
          detail: `claim ${cure.claim_id}: ${what}, open until ${new Date(Number(cure.expires_at)).toISOString()}`,
        }),
      ),
    )
  }

  const loop = backgroundLoop({
    work: () => runDue(),
    pollMs,
    logger,
    failure: 'cure notices failed',
    requests,
  })
  return {
    wake: () => loop.wake(),
    runDue,
    settled: () => loop.settled(),
    stop: () => loop.stop(),
  }
}

/** A reason's text for the claimant in their language (English when it has none), or the reviewer's own. */
export function reasonText(
  review: ReviewConfig,
  reason: string | null,
  written: string | null,
  locale: Locale,
): string {
  if (written) return written
  const text = reason === null ? undefined : review.reasons[reason]?.text
  return text?.[locale] ?? text?.en ?? ''
}

/** A new link to a cure's page: a random token, kept only as its SHA-256 (claim_cure_links). */
export async function issueCureLink(
  db: Kysely<Database> | Transaction<Database>,
  cureId: number,
  now: number,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url')
  await db
    .insertInto('claim_cure_links')
    .values({ token_hash: tokenHash(token), cure_id: cureId, issued_at: now, opened_at: null })
    .execute()
  return token
}
