import type { SendMailOptions } from 'nodemailer'
import { CONFIRMATION_EMAIL_TEXT, CONFIRMATION_LINK_TEXT } from '../../src/confirmation-messages.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import type { Translator } from '../../src/translate.ts'
import { firmInitials } from '../firm-logo.ts'
import { mailAttachment, type MailAttachment } from './mail-attachment.ts'

/** A claimant's e-mail: paragraphs, then buttons (each a link), then the firm's foot. */
export interface FirmMail {
  from: string
  to: string
  subject: string
  /** The claimant's language: the foot's words. */
  t: Translator
  /** Each the same words in both parts; one with a link inside gives its HTML apart. */
  paragraphs: (string | { text: string; html: string })[]
  buttons?: { label: string; url: string }[]
  /** Said in the foot, above the firm's address (e.g. why the claimant gets reminders). */
  footNote?: string
  /** The unsubscribe link, shown in the foot. */
  unsubscribeUrl?: string
  headers?: Record<string, string>
  attachments?: MailAttachment[]
}

/**
 * The message as HTML (the firm's mark and name, the paragraphs, the buttons, the foot with the
 * firm's postal address and contact) with the same words as its plain-text part. Inline styles only,
 * in one narrow column, as mail programs on phones show them. An attachment keeps the claimant's
 * letters in its name ("Peña" stays "Peña"), with an ASCII fallback (mail-attachment.ts).
 */
export function firmMail({
  from,
  to,
  subject,
  t,
  paragraphs,
  buttons = [],
  footNote,
  unsubscribeUrl,
  headers,
  attachments,
}: FirmMail): SendMailOptions {
  const firm = FIRM_SETTINGS
  const foot = [
    ...(footNote ? [footNote] : []),
    `${firm.firmName} · ${firm.postalAddress}`,
    t('Questions? Write to {email}.', { email: firm.contactEmail }),
  ]
  const unsubscribeText = t('Unsubscribe from reminders')
  const text = [
    firm.firmName,
    '',
    ...paragraphs.flatMap((paragraph) => [typeof paragraph === 'string' ? paragraph : paragraph.text, '']),
    ...buttons.flatMap(({ label, url }) => [`${label}: ${url}`, '']),
    '________',
    ...foot,
    ...(unsubscribeUrl ? [`${unsubscribeText}: ${unsubscribeUrl}`] : []),
  ].join('\n')
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<div style="max-width:560px;margin:0 auto;padding:16px">
<div style="background:#ffffff;border-radius:8px;padding:24px">
<p style="margin:0 0 20px;font-size:18px;font-weight:bold;color:#1e3a8a"><span style="display:inline-block;background:#1e3a8a;color:#fbbf24;border-radius:6px;padding:4px 8px;margin-right:8px">${escapeHtml(firmInitials(firm.firmName))}</span>${escapeHtml(firm.firmName)}</p>
${paragraphs.map((paragraph) => `<p style="margin:0 0 14px;line-height:1.5">${typeof paragraph === 'string' ? escapeHtml(paragraph) : paragraph.html}</p>`).join('\n')}
${buttons.map((button) => `<p style="margin:0 0 12px">${mailButton(button)}</p>`).join('\n')}
</div>
<div style="padding:16px 8px;font-size:12px;line-height:1.5;color:#4b5563">
${foot.map((line) => `<p style="margin:0 0 6px">${escapeHtml(line)}</p>`).join('\n')}
${unsubscribeUrl ? `<p style="margin:0"><a href="${escapeHtml(unsubscribeUrl)}" style="color:#4b5563">${escapeHtml(unsubscribeText)}</a></p>` : ''}
</div>
</div>
</body></html>`
  return {
    from,
    to,
    subject,
    text: `${text}\n`,
    html,
    ...(headers ? { headers } : {}),
    ...(attachments ? { attachments: attachments.map(mailAttachment) } : {}),
  }
}

/** A link drawn as a button, for an e-mail's call to action: its label, never its long address. */
export function mailButton({ label, url }: { label: string; url: string }): string {
  return `<a href="${escapeHtml(url)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:bold;padding:12px 20px;border-radius:6px">${escapeHtml(label)}</a>`
}

/** "Did you file this claim yourself? …" with the link: its address in the text, "Confirm it was you" in HTML. */
export function confirmationParagraph(t: Translator, url: string): { text: string; html: string } {
  const [before = '', after = ''] = t(CONFIRMATION_EMAIL_TEXT).split('{link}')
  const link = `<a href="${escapeHtml(url)}">${escapeHtml(t(CONFIRMATION_LINK_TEXT))}</a>`
  return {
    text: t(CONFIRMATION_EMAIL_TEXT, { link: url }),
    html: `${escapeHtml(before)}${link}${escapeHtml(after)}`,
  }
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/**
 * A short e-mail, its point most often one link: the paragraphs as plain text, and as HTML with the
 * link's paragraph (if any) made a link.
 */
export function linkMail({
  from,
  to,
  subject,
  paragraphs,
  url,
}: {
  from: string
  to: string
  subject: string
  paragraphs: string[]
  url?: string
}): SendMailOptions {
  return {
    from,
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs
      .map((paragraph) =>
        paragraph === url
          ? `<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`
          : `<p>${escapeHtml(paragraph)}</p>`,
      )
      .join('\n'),
  }
}

/** A paragraph that is one link: the address as text, and a link to it in the HTML. */
export function linkParagraph(url: string): { text: string; html: string } {
  return { text: url, html: `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>` }
}
