import type { Kysely } from 'kysely'
import type { SendMailOptions } from 'nodemailer'
import { CURE_PAGE_PATH } from '../../src/api/cure.ts'
import { DAY_MS } from '../../src/durations.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale, type Translator } from '../../src/translate.ts'
import { tokenHash } from '../platform/token-hash.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import { escapeHtml, firmMail, mailButton } from '../platform/firm-mail.ts'
import { errorCode, type Logger } from '../logger.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { issueCureLink, reasonText, SERVER_ACTOR } from './claim-cures.ts'
import { claimantTimeZone } from '../lifecycle/cure-deadline.ts'

export const SEND_CURE_NOTICE = 'send-cure-notice'

/** The second reminder goes this long before the period ends. */
const LAST_REMINDER_BEFORE_END_MS = 2 * DAY_MS

/** When the mail after `sent` of them is due: the notice at once, reminders at half and two days before the end. */
function nextNoticeAt(cure: { started_at: number; expires_at: number }, sent: number): number {
  const [started, expires] = [Number(cure.started_at), Number(cure.expires_at)]
  if (sent === 0) return started
  if (sent === 1) return Math.ceil((started + expires) / 2)
  if (sent === 2) return expires - LAST_REMINDER_BEFORE_END_MS
  return expires
}

/**
 * A cure period's mail: a deficiency notice as soon as a claim is made deficient, a reminder at half
 * the period and another two days before its end, each with a link of its own. The mail is counted
 * (notices_sent) before it goes and handed back if it fails. The period's end is end-cure-period's.
 */
export function sendCureNoticeJob({
  db,
  reviews,
  forms,
  evidenceKey,
  deliver,
  from,
  translators,
  publicUrl,
  logger,
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
  pollMs?: number
}): RowJobHandler<'claim_cures'> {
  return {
    kind: SEND_CURE_NOTICE,
    table: 'claim_cures',
    where: (eb, now) => eb.and([eb('ended_at', 'is', null), eb('expires_at', '>', now)]),
    pollMs,
    batch: 100,
    async run({ row: cure, now }) {
      const sent = Number(cure.notices_sent)
      const dueAt = nextNoticeAt(cure, sent)
      // nothing due yet (a row carried over without its time): due when its next mail is
      if (sent > 2 || dueAt > now) return { next: Math.min(dueAt, Number(cure.expires_at)) }
      const token = await retryWhileLocked(() =>
        db.transaction().execute(async (trx) => {
          await trx
            .updateTable('claim_cures')
            .set({ notices_sent: sent + 1 })
            .where('id', '=', cure.id)
            .execute()
          return issueCureLink(trx, cure.id, now)
        }),
      )
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
        // handed back: the link goes and the count is undone, and the retry sends it again
        await db.transaction().execute(async (trx) => {
          await trx.deleteFrom('claim_cure_links').where('token_hash', '=', tokenHash(token)).execute()
          await trx.updateTable('claim_cures').set({ notices_sent: sent }).where('id', '=', cure.id).execute()
        })
        logger.warn({ claimId: Number(cure.claim_id), err: errorCode(error) }, `cure ${what} not sent`)
        return 'retry'
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
      return { next: Math.min(nextNoticeAt(cure, sent + 1), Number(cure.expires_at)) }
    },
  }
}
