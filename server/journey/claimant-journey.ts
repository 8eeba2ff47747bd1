import type { Kysely } from 'kysely'
import type { SendMailOptions } from 'nodemailer'
import { intakeReference, type JourneyConfig, type Step2Link } from '../../src/journey-config.ts'
import { isFormOpen } from '../../src/form-config.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../src/translate.ts'
import { signedAgreementDocument } from '../agreements/agreement-document.ts'
import type { AgreementPdfs } from '../agreements/agreement-pdfs.ts'
import { findIntakeAgreementsByContact } from '../agreements/intake-agreement.repository.ts'
import { intakeSignedRecord } from '../agreements/signed-record.ts'
import { backgroundLoop } from '../jobs/background-loop.ts'
import { issueConfirmationLink } from '../confirmations/confirmation-links.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../forms/languages.ts'
import { errorCode, type Logger } from '../logger.ts'
import type { RequestActivity } from '../request-activity.ts'
import { withinSendHours } from './claimant-day.ts'
import { confirmationParagraph, firmMail } from '../platform/firm-mail.ts'
import type { MailAttachment } from '../platform/mail-attachment.ts'
import { journeyTokens, type JourneyTokens } from './journey-tokens.ts'
import { e164, START_WORDS, STOP_WORDS, type SmsSender } from './sms.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { normalizePhone } from '../../src/phone.ts'
import { hitRateLimit } from '../rate-limit.ts'
import { forgetExpiredPrefillLinks } from './open-prefill-link.ts'
import { TEXT_REPLY_LIMIT } from './opt-out-limits.ts'
import { DAY_MS } from '../../src/durations.ts'
import { retryAt } from '../jobs/retry-policy.ts'

const BATCH = 100
/** The page that unsubscribes (its token in the fragment) and the one-click address (RFC 8058). */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe'
export const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/journey/unsubscribe'

/**
 * The claimant's way from the main form to every Step 2 claim: the links that pre-fill each Step 2
 * form, the e-mail right after the intake (its agreement as a PDF, the links), and the reminders for
 * the apps still without a claim, on the days journey.json names, in the claimant's daytime, at most
 * `perMinute` a minute across every server process, never to an address that unsubscribed. Each e-mail
 * is claimed in the database (claimant_journeys.mails_sent) before it goes, so several processes never
 * send one twice; one that fails is handed back and retried.
 */
export interface ClaimantJourney {
  tokens: JourneyTokens
  /** Each of these apps with an open Step 2 form, its link pre-filling the form for this intake. */
  step2Links(values: {
    intakeId: number
    apps: string[]
    locale: Locale
    now?: number
    /** Links that pre-fill their form once (a text's; journey-tokens.ts). */
    singleUse?: boolean
  }): Step2Link[]
  /** The chosen apps of an intake that still have no Step 2 claim, with their links. */
  pendingSteps(intakeId: number, now?: number): Promise<Step2Link[]>
  /** An intake was stored: send its e-mail now. */
  wake(): void
  /** Sends what is due at `now` (tests move the clock), returning when nothing more is. */
  runDue(now?: number): Promise<void>
  /** Puts the intake's address on the suppression list; false for a token that names no intake. */
  unsubscribe(token: unknown, source: 'link' | 'one-click'): Promise<boolean>
  /**
   * A reply to a text reminder, as the SMS provider's webhook posts it: STOP (and its synonyms) puts
   * the phone on the SMS suppression list, START takes it off; 'unsigned' when the webhook's signature
   * is not the provider's (or no SMS provider is set).
   */
  textReply(reply: {
    url: string
    fields: Record<string, string>
    signature: string | undefined
  }): Promise<'stopped' | 'started' | 'ignored' | 'unsigned'>
  settled(): Promise<void>
  stop(): Promise<void>
}

export function createClaimantJourney({
  db,
  config,
  languages,
  evidenceKey,
  agreementPdfs,
  deliver,
  from,
  publicUrl,
  perMinute,
  logger,
  requests,
  pollMs = 60_000,
  sms,
}: {
  db: Kysely<Database>
  config: JourneyConfig
  languages: Languages
  /** The links' tokens are signed with a key derived from it. */
  evidenceKey: Buffer
  /** Makes the PDF the intake's e-mail carries; unset, the e-mail goes without it. */
  agreementPdfs?: AgreementPdfs | undefined
  /** The site's one mail path (mailDelivery). */
  deliver: (message: SendMailOptions) => Promise<void>
  from: string
  /** PUBLIC_URL: the links' origin when set; otherwise the one the claimant reached the site by. */
  publicUrl?: string | undefined
  /** REMINDERS_PER_MINUTE: reminders sent in any minute, by all server processes together. */
  perMinute: number
  logger: Logger
  requests?: RequestActivity | undefined
  pollMs?: number
  /** SMS_PROVIDER: each reminder also goes as a text to a claimant who ticked the communications consent. */
  sms?: SmsSender | undefined
}): ClaimantJourney {
  const tokens = journeyTokens(evidenceKey)

  const step2Links: ClaimantJourney['step2Links'] = ({
    intakeId,
    apps,
    locale,
    now = Date.now(),
    singleUse = false,
  }) => {
    const forms = languages.forms(locale)
    const expiresAt = now + config.linkDays * DAY_MS
    return apps.flatMap((app) => {
      const form = forms.get(app)
      if (!form || !isFormOpen(form)) return []
      const lang = languages.formLocale(app, locale) === DEFAULT_LOCALE ? '' : `?lang=${locale}`
      const token = tokens.prefill({ intakeId, app, expiresAt, singleUse })
      return [{ app, appName: form.displayName, path: `/${app}${lang}#prefill=${token}` }]
    })
  }

  const intakeOf = (intakeId: number) =>
    db
      .selectFrom('form_submissions')
      .select([
        'id',
        'first_name',
        'last_name',
        'email',
        'phone',
        'cash_advance_apps',
        'locale',
        'communications_consent',
      ])
      .where('id', '=', intakeId)
      .executeTakeFirst()

  /** The intake's chosen apps without a Step 2 claim of the same claimant. */
  const missingApps = async (intake: { id: number; cash_advance_apps: string }) => {
    const done = await db
      .selectFrom('claims')
      .select('app')
      .where('intake_id', '=', Number(intake.id))
      .execute()
    const filed = new Set(done.map((claim) => claim.app))
    return (JSON.parse(intake.cash_advance_apps) as string[]).filter((app) => !filed.has(app))
  }

  const pendingSteps: ClaimantJourney['pendingSteps'] = async (intakeId, now = Date.now()) => {
    const intake = await intakeOf(intakeId)
    if (!intake) return []
    const locale = parseLocale(intake.locale) ?? DEFAULT_LOCALE
    return step2Links({ intakeId, apps: await missingApps(intake), locale, now })
  }

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

  const runDue = async (now = Date.now()) => {
    // the windows of past minutes are of no more use
    await db
      .deleteFrom('reminder_windows')
      .where('minute', '<', Math.floor(now / 60_000) - 60)
      .execute()
    await forgetExpiredPrefillLinks(db, now)
    for (;;) {
      const due = await db
        .selectFrom('claimant_journeys')
        .select(['intake_id', 'created_at', 'mails_sent', 'time_zone', 'link_origin'])
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .limit(BATCH)
        .execute()
      for (const journey of due) {
        if (loop.isStopped()) return
        await loop.quietMoment()
        const outcome = await sendDue(
          {
            intakeId: Number(journey.intake_id),
            createdAt: Number(journey.created_at),
            mailsSent: Number(journey.mails_sent),
            timeZone: journey.time_zone,
            origin: publicUrl ?? journey.link_origin,
          },
          now,
        )
        // the minute's reminders are spent: the rest wait for the next poll
        if (outcome === 'rate') return
      }
      if (due.length < BATCH) return
    }
  }

  /** Moves the journey on from `sent` mails, if no other process did first. */
  const advance = async (
    intakeId: number,
    sent: number,
    values: { mails_sent?: number; due_at: number | null; last_mail_at?: number },
  ) => {
    const moved = await db
      .updateTable('claimant_journeys')
      .set(values)
      .where('intake_id', '=', intakeId)
      .where('mails_sent', '=', sent)
      .executeTakeFirst()
    return Number(moved.numUpdatedRows) === 1
  }

  const sendDue = async (
    journey: { intakeId: number; createdAt: number; mailsSent: number; timeZone: string; origin: string },
    now: number,
  ): Promise<'sent' | 'skipped' | 'rate'> => {
    const { intakeId, createdAt, mailsSent } = journey
    const intake = await intakeOf(intakeId)
    if (!intake) {
      await db.deleteFrom('claimant_journeys').where('intake_id', '=', intakeId).execute()
      return 'skipped'
    }
    const missing = await missingApps(intake)
    const first = mailsSent === 0
    // mails_sent after this e-mail: 1 for the intake's, 1 + n for reminder n
    const reminder = first ? 0 : reminderDueAt(createdAt, now)
    if (!first) {
      const suppressed = await db
        .selectFrom('email_suppressions')
        .select('email')
        .where('email', '=', intake.email)
        .executeTakeFirst()
      if (missing.length === 0 || suppressed || reminder <= mailsSent - 1) {
        // every claim is in, or the address unsubscribed: no more reminders
        await advance(intakeId, mailsSent, {
          due_at: missing.length === 0 || suppressed ? null : nextReminderAt(createdAt, mailsSent - 1),
        })
        return 'skipped'
      }
      const daytime = withinSendHours(now, journey.timeZone, config.sendHours)
      if (daytime > now) {
        await advance(intakeId, mailsSent, { due_at: daytime })
        return 'skipped'
      }
    }
    const sentAfter = first ? 1 : 1 + reminder
    const next = missing.length === 0 ? null : nextReminderAt(createdAt, sentAfter - 1)
    if (!(await advance(intakeId, mailsSent, { mails_sent: sentAfter, due_at: next, last_mail_at: now })))
      return 'skipped'
    // counted once the reminder is this process's to send, so a race lost to another spends no slot
    if (!first && !(await takeRateSlot(now))) {
      await advance(intakeId, sentAfter, { mails_sent: mailsSent, due_at: now })
      return 'rate'
    }
    const locale = parseLocale(intake.locale) ?? DEFAULT_LOCALE
    const links = step2Links({ intakeId, apps: missing, locale, now })
    try {
      const message = first
        ? await intakeMail(intake, links, journey.origin, locale)
        : reminderMail(intake, links, journey.origin, locale)
      await deliver(message)
      if (!first) await textReminder({ intake, links, origin: journey.origin, locale, now })
      return 'sent'
    } catch (error) {
      // handed back: the next run sends it again
      // the jobs' retry table, counted by the mails this journey has sent (its own count of attempts)
      const dueAt = retryAt('send-reminder', sentAfter, now)!
      const delay = dueAt - now
      await advance(intakeId, sentAfter, { mails_sent: mailsSent, due_at: dueAt })
      logger.warn(
        { intakeId, err: errorCode(error), retryInMs: delay },
        first ? 'intake e-mail not sent' : 'reminder not sent',
      )
      return 'skipped'
    }
  }

  type IntakeRow = NonNullable<Awaited<ReturnType<typeof intakeOf>>>

  const buttons = (links: Step2Link[], origin: string, t: ReturnType<Languages['t']>) =>
    links.map((link) => ({
      label: t('File your {app} claim', { app: link.appName }),
      url: `${origin}${link.path}`,
    }))

  /**
   * The e-mail after the intake: the signed agreement as a PDF, the reference, the link to confirm it was
   * the claimant, each Step 2 link.
   */
  const intakeMail = async (intake: IntakeRow, links: Step2Link[], origin: string, locale: Locale) => {
    const t = languages.t(locale)
    const [row] = await findIntakeAgreementsByContact(db, {
      email: intake.email,
      phoneNumbers: [intake.phone],
      intakeId: Number(intake.id),
    })
    let attachments: MailAttachment[] = []
    if (row && agreementPdfs) {
      const config = languages.intake(locale)
      const signed = signedAgreementDocument(
        intakeSignedRecord(
          row,
          intakeAgreementApp({ config, chosen: row.apps, locale, noneChosen: '' }).displayName,
        ),
        t,
      )
      const pdf = await agreementPdfs.make({ html: signed.html, title: signed.title, audit: signed.audit })
      attachments = [{ filename: signed.fileName('pdf'), content: pdf, contentType: 'application/pdf' }]
    }
    return firmMail({
      from,
      to: intake.email,
      subject: t('Your signed agreement and your next steps'),
      t,
      paragraphs: [
        t('Hello {name},', { name: intake.first_name }),
        t('Thank you for signing. A copy of your agreement is attached; please keep it for your records.'),
        t('Your reference number is {reference}.', { reference: intakeReference(Number(intake.id)) }),
        confirmationParagraph(
          t,
          await issueConfirmationLink(db, {
            target: { of: 'intake', id: Number(intake.id) },
            origin,
            locale,
          }),
        ),
        ...(links.length > 0
          ? [
              t(
                'Next, file a claim for each app you used. Each takes a few minutes: a screenshot of your bank statement and your signature.',
              ),
            ]
          : []),
      ],
      buttons: buttons(links, origin, t),
      attachments,
    })
  }

  /** A reminder: the apps still without a claim, each with its link, and the way to stop reminders. */
  const reminderMail = (intake: IntakeRow, links: Step2Link[], origin: string, locale: Locale) => {
    const t = languages.t(locale)
    const token = tokens.unsubscribe(Number(intake.id))
    const oneClick = `${origin}${ONE_CLICK_UNSUBSCRIBE_PATH}?token=${token}`
    const lang = locale === DEFAULT_LOCALE ? '' : `?lang=${locale}`
    return firmMail({
      from,
      to: intake.email,
      subject: t('Reminder: your claim is not finished'),
      t,
      paragraphs: [
        t('Hello {name},', { name: intake.first_name }),
        t(
          'You told us you used {apps}, but we have not received your claim for it yet. It takes a few minutes.',
          {
            apps: links.map((link) => link.appName).join(', '),
          },
        ),
        t('Your reference number is {reference}.', { reference: intakeReference(Number(intake.id)) }),
      ],
      buttons: buttons(links, origin, t),
      footNote: t('You get these reminders because you started a claim with us.'),
      unsubscribeUrl: `${origin}${UNSUBSCRIBE_PAGE_PATH}${lang}#token=${token}`,
      headers: {
        'List-Unsubscribe': `<${oneClick}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    })
  }

  /**
   * The reminder as a text, to a claimant who ticked the communications consent and has not replied
   * STOP, its link single-use (journey-tokens.ts). Best effort: the e-mail has gone, so a refused text
   * is logged, not retried.
   */
  const textReminder = async ({
    intake,
    links,
    origin,
    locale,
    now,
  }: {
    intake: IntakeRow
    links: Step2Link[]
    origin: string
    locale: Locale
    now: number
  }) => {
    if (!sms || intake.communications_consent !== 1 || links.length === 0) return
    const stopped = await db
      .selectFrom('sms_suppressions')
      .select('phone')
      .where('phone', '=', intake.phone)
      .executeTakeFirst()
    if (stopped) return
    const [textLink] = step2Links({
      intakeId: Number(intake.id),
      apps: [links[0]!.app],
      locale,
      now,
      singleUse: true,
    })
    if (!textLink) return
    const t = languages.t(locale)
    const body = t(
      '{firm}: you told us you used {apps}, but your claim is not filed yet. File it here: {link} Reply STOP to stop texts.',
      {
        firm: FIRM_SETTINGS.firmName,
        apps: links.map((link) => link.appName).join(', '),
        link: `${origin}${textLink.path}`,
      },
    )
    await sms.send({ to: e164(intake.phone), body }).catch((error: unknown) => {
      logger.warn({ intakeId: Number(intake.id), err: errorCode(error) }, 'text reminder not sent')
    })
  }

  const textReply: ClaimantJourney['textReply'] = async ({ url, fields, signature }) => {
    if (!sms || !sms.isSigned(url, fields, signature)) return 'unsigned'
    const word = (fields.Body ?? '').trim().toUpperCase()
    // "+18085550100" as the forms store it, "(808) 555-0100"
    const phone = normalizePhone(fields.From ?? '')
    if (!/^\(\d{3}\) \d{3}-\d{4}$/.test(phone)) return 'ignored'
    const isStop = STOP_WORDS.includes(word)
    if (!isStop && !START_WORDS.includes(word)) return 'ignored'
    // Twilio's inbound webhook names no time of sending, so replies count in the order they arrive; its
    // message id is honoured once, so a replayed START cannot undo a STOP that arrived after it
    const messageSid = fields.MessageSid ?? fields.SmsMessageSid
    // a START without an id could be a replay; a STOP without one is still an opt-out
    if (!messageSid && !isStop) return 'ignored'
    if (!(await hitRateLimit(db, { rule: TEXT_REPLY_LIMIT, client: phone })).allowed) {
      // past its number's limit a reply is dropped, except a STOP for a phone still texted: one read,
      // and one write the first time only, so an opt-out is never lost to the limit
      if (!isStop) return 'ignored'
      const stopped = await db
        .selectFrom('sms_suppressions')
        .select('phone')
        .where('phone', '=', phone)
        .executeTakeFirst()
      if (stopped) return 'ignored'
      await db
        .insertInto('sms_suppressions')
        .values({ phone, created_at: Date.now() })
        .onConflict((conflict) => conflict.column('phone').doNothing())
        .execute()
      return 'stopped'
    }
    return db.transaction().execute(async (trx) => {
      if (messageSid) {
        const fresh = await trx
          .insertInto('sms_replies')
          .values({ message_sid: messageSid, phone, created_at: Date.now() })
          .onConflict((conflict) => conflict.column('message_sid').doNothing())
          .returning('message_sid')
          .executeTakeFirst()
        if (!fresh) return 'ignored'
      }
      if (isStop) {
        await trx
          .insertInto('sms_suppressions')
          .values({ phone, created_at: Date.now() })
          .onConflict((conflict) => conflict.column('phone').doNothing())
          .execute()
        return 'stopped'
      }
      await trx.deleteFrom('sms_suppressions').where('phone', '=', phone).execute()
      return 'started'
    })
  }

  const unsubscribe: ClaimantJourney['unsubscribe'] = async (token, source) => {
    const intakeId = tokens.readUnsubscribe(token)
    if (intakeId === undefined) return false
    const intake = await intakeOf(intakeId)
    if (!intake) return false
    await db
      .insertInto('email_suppressions')
      .values({ email: intake.email, created_at: Date.now(), source })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .execute()
    return true
  }

  const loop = backgroundLoop({
    work: () => runDue(),
    pollMs,
    logger,
    failure: 'claimant e-mails failed',
    requests,
  })
  return {
    tokens,
    step2Links,
    pendingSteps,
    wake: () => loop.wake(),
    runDue,
    unsubscribe,
    textReply,
    settled: () => loop.settled(),
    stop: () => loop.stop(),
  }
}
