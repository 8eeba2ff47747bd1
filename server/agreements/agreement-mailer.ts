import type { SendMailOptions } from 'nodemailer'
import { translator, type Translator } from '../../src/translate.ts'
import { confirmationParagraph, firmMail, linkParagraph, type FirmMail } from '../platform/firm-mail.ts'
import { mailDelivery, type MailSettings } from '../platform/mail-delivery.ts'

/** A claimant's copy of the agreement they signed. */
export interface AgreementMail {
  to: string
  claimantName: string
  appName: string
  /** the full self-contained HTML document, sent as the attachment */
  html: string
  /** e.g. 'Ana-Lopez-agreement.html' */
  filename: string
  /** The same agreement as a sealed PDF, attached beside the HTML. */
  pdf: { filename: string; content: Buffer }
  /** The link that confirms the claim was filed by this inbox's owner ("Confirm it was you"). */
  confirmUrl?: string | undefined
  /** The claim's number, as the firm quotes it. */
  claimId?: number | undefined
  /** The apps the claimant's main form chose that still have no claim, each with its Step 2 link. */
  nextSteps?: { appName: string; url: string }[] | undefined
  /** The message's words in the language the agreement was signed in (English without one). */
  t?: Translator
}

/** The one-time link that opens a claimant's agreements (agreement-links.ts). */
export interface AgreementLinkMail {
  to: string
  claimantName: string
  /** The whole link, token and all: it is scrubbed from any logged error. */
  url: string
  /** How long the link works, in minutes. */
  minutes: number
  t?: Translator
}

export interface AgreementMailer {
  /** Never rejects: true once delivered; a failure is logged (without personal data) and gives false. */
  send(mail: AgreementMail): Promise<boolean>
  /** The same, for a one-time link. */
  sendLink(mail: AgreementLinkMail): Promise<boolean>
}

/**
 * Sends through SMTP when `smtpUrl` is set; otherwise writes each message to
 * {dataDir}/outbox/{timestamp}-{random}.eml, so development and tests need no mail server.
 */
export function createAgreementMailer({ smtpUrl, dataDir, from, logger }: MailSettings): AgreementMailer {
  const deliver = mailDelivery({ smtpUrl, dataDir })

  const deliverOrLog = async (
    message: SendMailOptions,
    { secrets, logged, what }: { secrets: string[]; logged: Record<string, unknown>; what: string },
  ) => {
    try {
      await deliver(message)
      return true
    } catch (error) {
      // error texts can quote the recipient ("<ana@…>: Recipient address rejected"): scrub before logging
      const text = error instanceof Error ? error.message : String(error)
      logger.warn({ err: scrub(text, secrets), ...logged }, `${what} not sent`)
      return false
    }
  }
  return {
    send: (mail) =>
      deliverOrLog(composeMessage(from, mail), {
        secrets: [mail.to, mail.filename, mail.pdf.filename, ...nameParts(mail.claimantName)],
        logged: { app: mail.appName },
        what: 'agreement e-mail',
      }),
    sendLink: (mail) =>
      deliverOrLog(composeLinkMessage(from, mail), {
        secrets: [mail.to, mail.url, ...nameParts(mail.claimantName)],
        logged: {},
        what: 'agreement link e-mail',
      }),
  }
}

function composeMessage(
  from: string,
  {
    to,
    claimantName,
    appName,
    html,
    filename,
    pdf,
    confirmUrl,
    claimId,
    nextSteps = [],
    t = translator(undefined),
  }: AgreementMail,
): SendMailOptions {
  const paragraphs: FirmMail['paragraphs'] = [
    t('Hello {name},', { name: claimantName }),
    t('Thank you for signing. A copy of your {app} agreement is attached; please keep it for your records.', {
      app: appName,
    }),
  ]
  if (claimId !== undefined)
    paragraphs.push(t('Your claim number is {id}. Please quote it when you contact us.', { id: claimId }))
  if (confirmUrl) paragraphs.push(confirmationParagraph(t, confirmUrl))
  if (nextSteps.length > 0)
    paragraphs.push(
      t('You also chose {apps} on your claim form. File a claim for each with the buttons below.', {
        apps: nextSteps.map((step) => step.appName).join(', '),
      }),
    )
  return firmMail({
    from,
    to,
    subject: t('Your signed {app} agreement', { app: appName }),
    t,
    paragraphs,
    buttons: nextSteps.map((step) => ({
      label: t('File your {app} claim', { app: step.appName }),
      url: step.url,
    })),
    attachments: [
      { filename, content: html, contentType: 'text/html; charset=utf-8' },
      { filename: pdf.filename, content: pdf.content, contentType: 'application/pdf' },
    ],
  })
}

function composeLinkMessage(
  from: string,
  { to, claimantName, url, minutes, t = translator(undefined) }: AgreementLinkMail,
): SendMailOptions {
  return firmMail({
    from,
    to,
    subject: t('Your link to view your signed agreements'),
    t,
    paragraphs: [
      t('Hello {name},', { name: claimantName }),
      t(
        'You asked to see the agreements you signed. This link shows them and lets you download them. It works once, within {minutes} minutes:',
        { minutes },
      ),
      linkParagraph(url),
      t('If you did not ask for it, you can ignore this email: nobody can see your agreements without it.'),
    ],
  })
}

const EMAIL_ADDRESS = /[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/g

function nameParts(name: string): string[] {
  return [name, ...name.split(/[\s-]+/)]
}

/** The error text without any e-mail address, nor the secrets: the name (whole and in parts), file names, a link. */
function scrub(message: string, secrets: string[]): string {
  let text = message.replace(EMAIL_ADDRESS, '[redacted]')
  for (const secret of secrets.map((each) => each.trim()).filter((each) => each.length >= 2)) {
    const escaped = secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu'), '[redacted]')
  }
  return text
}
