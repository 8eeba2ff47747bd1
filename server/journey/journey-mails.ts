import type { Kysely } from 'kysely'
import type { SendMailOptions } from 'nodemailer'
import { intakeReference, type Step2Link } from '../../src/journey-config.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import { DEFAULT_LOCALE, type Locale } from '../../src/translate.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import { signedAgreementDocument } from '../agreements/agreement-document.ts'
import type { AgreementPdfs } from '../agreements/agreement-pdfs.ts'
import { findIntakeAgreementsByContact } from '../agreements/intake-agreement.repository.ts'
import { intakeSignedRecord } from '../agreements/signed-record.ts'
import { issueConfirmationLink } from '../confirmations/confirmation-links.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../forms/languages.ts'
import { errorCode, type Logger } from '../logger.ts'
import { confirmationParagraph, firmMail } from '../platform/firm-mail.ts'
import type { MailAttachment } from '../platform/mail-attachment.ts'
import type { JourneyTokens } from './journey-tokens.ts'
import { e164, type SmsSender } from './sms.ts'

/** The page that unsubscribes (its token in the fragment) and the one-click address (RFC 8058). */
export const UNSUBSCRIBE_PAGE_PATH = '/unsubscribe'
export const ONE_CLICK_UNSUBSCRIBE_PATH = '/api/journey/unsubscribe'

/** The intake as the journey's mails read it. */
export function journeyIntake(db: Kysely<Database>, intakeId: number) {
  return db
    .selectFrom('form_submissions')
    .select(['id', 'first_name', 'email', 'phone', 'cash_advance_apps', 'locale', 'communications_consent'])
    .where('id', '=', intakeId)
    .executeTakeFirst()
}
export type JourneyIntake = NonNullable<Awaited<ReturnType<typeof journeyIntake>>>

const buttons = (links: Step2Link[], origin: string, t: ReturnType<Languages['t']>) =>
  links.map((link) => ({
    label: t('File your {app} claim', { app: link.appName }),
    url: `${origin}${link.path}`,
  }))

/**
 * The e-mail after the intake: the signed agreement as a PDF (when `agreementPdfs` is set), the
 * reference, the link to confirm it was the claimant, each Step 2 link.
 */
export async function intakeMail({
  db,
  languages,
  agreementPdfs,
  from,
  intake,
  links,
  origin,
  locale,
}: {
  db: Kysely<Database>
  languages: Languages
  agreementPdfs: AgreementPdfs | undefined
  from: string
  intake: JourneyIntake
  links: Step2Link[]
  origin: string
  locale: Locale
}): Promise<SendMailOptions> {
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
export function reminderMail({
  languages,
  tokens,
  from,
  intake,
  links,
  origin,
  locale,
}: {
  languages: Languages
  tokens: Pick<JourneyTokens, 'unsubscribe'>
  from: string
  intake: JourneyIntake
  links: Step2Link[]
  origin: string
  locale: Locale
}): SendMailOptions {
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
export async function textReminder({
  db,
  sms,
  languages,
  logger,
  intake,
  links,
  textLink,
  origin,
  locale,
}: {
  db: Kysely<Database>
  sms: SmsSender | undefined
  languages: Languages
  logger: Logger
  intake: JourneyIntake
  links: Step2Link[]
  /** The single-use link of the first app still without a claim. */
  textLink: () => Step2Link | undefined
  origin: string
  locale: Locale
}): Promise<void> {
  if (!sms || intake.communications_consent !== 1 || links.length === 0) return
  const stopped = await db
    .selectFrom('sms_suppressions')
    .select('phone')
    .where('phone', '=', intake.phone)
    .executeTakeFirst()
  if (stopped) return
  const link = textLink()
  if (!link) return
  const t = languages.t(locale)
  const body = t(
    '{firm}: you told us you used {apps}, but your claim is not filed yet. File it here: {link} Reply STOP to stop texts.',
    {
      firm: FIRM_SETTINGS.firmName,
      apps: links.map((link) => link.appName).join(', '),
      link: `${origin}${link.path}`,
    },
  )
  await sms.send({ to: e164(intake.phone), body }).catch((error: unknown) => {
    logger.warn({ intakeId: Number(intake.id), err: errorCode(error) }, 'text reminder not sent')
  })
}
