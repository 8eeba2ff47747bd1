import type { Kysely } from 'kysely'
import type { SendMailOptions } from 'nodemailer'
import type { JourneyConfig } from '../../src/journey-config.ts'
import { DAY_MS } from '../../src/durations.ts'
import { DEFAULT_LOCALE, parseLocale } from '../../src/translate.ts'
import type { AgreementPdfs } from '../agreements/agreement-pdfs.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { Languages } from '../forms/languages.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import { errorCode, type Logger } from '../logger.ts'
import type { ClaimantJourney } from './claimant-journey.ts'
import { withinSendHours } from './claimant-day.ts'
import { intakeMail, journeyIntake, reminderMail, textReminder } from './journey-mails.ts'
import { forgetExpiredPrefillLinks } from './open-prefill-link.ts'
import type { SmsSender } from './sms.ts'

export const SEND_REMINDER = 'send-reminder'

/**
 * A claimant's mail between the main form and the last Step 2 claim: the e-mail right after the intake
 * (its agreement as a PDF, the Step 2 links), then a reminder on each day journey.json names for the
 * apps still without a claim, in the claimant's daytime, at most `perMinute` a minute across every
 * server process, never to an address that unsubscribed. A mail is counted (mails_sent) before it goes,
 * under the job's lease, so a process that dies after sending leaves nothing to send twice; one that
 * fails is counted back and tried again as the retry policy says.
 */
export function sendReminderJob({
  db,
  journey,
  config,
  languages,
  agreementPdfs,
  deliver,
  from,
  publicUrl,
  perMinute,
  sms,
  logger,
  pollMs = 60_000,
}: {
  db: Kysely<Database>
  /** The links the mails carry. */
  journey: Pick<ClaimantJourney, 'step2Links' | 'missingApps' | 'tokens'>
  config: JourneyConfig
  languages: Languages
  /** Makes the PDF the intake's e-mail carries; unset, the e-mail goes without it. */
  agreementPdfs?: AgreementPdfs | undefined
  /** The site's one mail path (mailDelivery). */
  deliver: (message: SendMailOptions) => Promise<void>
  from: string
  /** PUBLIC_URL: the links' origin when set; otherwise the one the claimant reached the site by. */
  publicUrl?: string | undefined
  /** REMINDERS_PER_MINUTE: reminders sent in any minute, by all server processes together. */
  perMinute: number
  /** SMS_PROVIDER: each reminder also goes as a text to a claimant who ticked the communications consent. */
  sms?: SmsSender | undefined
  logger: Logger
  pollMs?: number
}): RowJobHandler<'claimant_journeys'> {
  /** The reminder due at `now` (the latest whose day has come; 1 is the first), 0 before the first. */
  const reminderDueAt = (createdAt: number, now: number) =>
    config.reminderDays.filter((day) => createdAt + day * DAY_MS <= now).length
  /** When the reminder after reminder `sent` is due, null after the last. */
  const nextReminderAt = (createdAt: number, sent: number) => {
    const day = config.reminderDays[sent]
    return day === undefined ? null : createdAt + day * DAY_MS
  }

  /** One more reminder in this minute, if the rate allows it (counted in the database for every process). */
  const takeRateSlot = async (now: number) => {
    const minute = Math.floor(now / 60_000)
    const taken = await db
      .insertInto('reminder_windows')
      .values({ minute, sent: 1 })
      .onConflict((conflict) =>
        conflict
          .column('minute')
          .doUpdateSet((eb) => ({ sent: eb('reminder_windows.sent', '+', 1) }))
          .where('reminder_windows.sent', '<', perMinute),
      )
      .returning('sent')
      .executeTakeFirst()
    return taken !== undefined
  }

  return {
    kind: SEND_REMINDER,
    table: 'claimant_journeys',
    pollMs,
    batch: 100,
    // claims come first: a reminder can wait for a quiet moment
    waitsForQuiet: true,
    async beforeRun(now) {
      // the windows of past minutes are of no more use
      await db
        .deleteFrom('reminder_windows')
        .where('minute', '<', Math.floor(now / 60_000) - 60)
        .execute()
      await forgetExpiredPrefillLinks(db, now)
    },
    async run({ row, now, renew, retryAt }) {
      const intakeId = Number(row.intake_id)
      const createdAt = Number(row.created_at)
      const mailsSent = Number(row.mails_sent)
      const intake = await journeyIntake(db, intakeId)
      if (!intake) {
        await db.deleteFrom('claimant_journeys').where('intake_id', '=', intakeId).execute()
        return 'ended'
      }
      const missing = await journey.missingApps(intake)
      const first = mailsSent === 0
      // mails_sent after this e-mail: 1 for the intake's, 1 + n for reminder n
      const reminder = first ? 0 : reminderDueAt(createdAt, now)
      if (!first) {
        const suppressed = await db
          .selectFrom('email_suppressions')
          .select('email')
          .where('email', '=', intake.email)
          .executeTakeFirst()
        // every claim is in, or the address unsubscribed: no more reminders
        if (missing.length === 0 || suppressed) return { next: null }
        if (reminder <= mailsSent - 1) return { next: nextReminderAt(createdAt, mailsSent - 1) }
        const daytime = withinSendHours(now, row.time_zone, config.sendHours)
        if (daytime > now) return { next: daytime }
        // the minute's reminders are spent: this one and the rest wait for the next poll, in their order
        if (!(await takeRateSlot(now))) return { next: Number(row.due_at), endRun: true }
      }
      const sentAfter = first ? 1 : 1 + reminder
      const counted = await retryWhileLocked(() =>
        db.transaction().execute(async (trx) => {
          if (!(await renew(trx))) return false
          await trx
            .updateTable('claimant_journeys')
            .set({ mails_sent: sentAfter, last_mail_at: now })
            .where('intake_id', '=', intakeId)
            .execute()
          return true
        }),
      )
      if (!counted) return 'ended' // another process took the journey over
      const origin = publicUrl ?? row.link_origin
      const locale = parseLocale(intake.locale) ?? DEFAULT_LOCALE
      const links = journey.step2Links({ intakeId, apps: missing, locale, now })
      try {
        const message = first
          ? await intakeMail({ db, languages, agreementPdfs, from, intake, links, origin, locale })
          : reminderMail({ languages, tokens: journey.tokens, from, intake, links, origin, locale })
        await deliver(message)
      } catch (error) {
        // counted back: the retry sends it
        await db
          .updateTable('claimant_journeys')
          .set({ mails_sent: mailsSent })
          .where('intake_id', '=', intakeId)
          .execute()
        logger.warn(
          { intakeId, err: errorCode(error), retryInMs: retryAt === undefined ? undefined : retryAt - now },
          first ? 'intake e-mail not sent' : 'reminder not sent',
        )
        return 'retry'
      }
      if (!first) {
        await textReminder({
          db,
          sms,
          languages,
          logger,
          intake,
          links,
          textLink: () =>
            journey.step2Links({ intakeId, apps: [links[0]!.app], locale, now, singleUse: true }).at(0),
          origin,
          locale,
        })
      }
      return { next: missing.length === 0 ? null : nextReminderAt(createdAt, sentAfter - 1) }
    },
  }
}
