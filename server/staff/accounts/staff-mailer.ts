import type { SendMailOptions } from 'nodemailer'
import { linkMail, mailDelivery, outboxDir, type MailSettings } from '../../agreements/agreement-mailer.ts'
import { INVITE_TTL_MS } from '../staff-invites.ts'

export interface InviteMail {
  to: string
  name: string
  /** The whole link, token and all: never logged. */
  url: string
}

/** A change to an account's two-factor sign-in, told to the account's own address. */
export interface TwoFactorNotice {
  account: { email: string; name: string }
  change: 'on' | 'off'
  /** The client address the change came from, as the audit trail records it. */
  address: string
}

export interface StaffMailer {
  /** Never rejects: true once delivered (or written to the outbox); a failure is logged without the address. */
  sendInvite(mail: InviteMail): Promise<boolean>
  /** As sendInvite, never rejects. */
  sendTwoFactorNotice(notice: TwoFactorNotice): Promise<boolean>
  /** Where the messages go, for the command line to say: 'SMTP (SMTP_URL)' or the outbox folder. */
  destination: string
}

/**
 * Staff invitations and notices of two-factor changes, through the site's one mail path (SMTP_URL, else
 * DATA_DIR/outbox).
 */
export function createStaffMailer({ smtpUrl, dataDir, from, logger }: MailSettings): StaffMailer {
  const deliver = mailDelivery({ smtpUrl, dataDir })
  const send = async (message: SendMailOptions, what: string) => {
    try {
      await deliver(message)
      return true
    } catch (error) {
      // an SMTP error's text can quote the recipient: only its code is logged
      const code = (error as { code?: unknown } | null)?.code
      logger.warn({ code: typeof code === 'string' ? code : 'unknown' }, `${what} e-mail not sent`)
      return false
    }
  }
  return {
    destination: smtpUrl ? 'SMTP (SMTP_URL)' : outboxDir(dataDir),
    sendInvite: (mail) => send(composeInvite(from, mail), 'staff invitation'),
    sendTwoFactorNotice: (notice) => send(composeTwoFactorNotice(from, notice), 'two-factor notice'),
  }
}

function composeInvite(from: string, { to, name, url }: InviteMail): SendMailOptions {
  const hours = INVITE_TTL_MS / 3_600_000
  const body = [
    `Hello ${name},`,
    `You have been given a staff account on the claims dashboard. Open this link to choose your password. It works once, within ${hours} hours:`,
    url,
    'If the link has expired, ask an admin of your firm to send a new invitation.',
  ]
  return linkMail({ from, to, subject: 'Your staff account on the claims dashboard', paragraphs: body, url })
}

/**
 * A person who knows an account's password can set up two-factor sign-in for it before its owner does
 * (REQUIRE_2FA covers the account and it has no code yet): the owner hears of every change at once,
 * from the address only the owner reads.
 */
function composeTwoFactorNotice(
  from: string,
  { account: { email: to, name }, change, address }: TwoFactorNotice,
): SendMailOptions {
  const when = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const body =
    change === 'on'
      ? [
          `Hello ${name},`,
          `Two-factor sign-in was turned on for your staff account on the claims dashboard at ${when}, from the address ${address}. From now on your account signs in with your password and a code from the authenticator app it was set up with.`,
          'If this was not you, someone else knows your password: ask an admin of your firm to disable your account and reset its two-factor sign-in now.',
        ]
      : [
          `Hello ${name},`,
          `Two-factor sign-in was turned off for your staff account on the claims dashboard at ${when}, from the address ${address}. Your account now signs in with its password alone.`,
          'If this was not you, ask an admin of your firm to disable your account now.',
        ]
  return linkMail({
    from,
    to,
    subject: `Two-factor sign-in was turned ${change} for your staff account`,
    paragraphs: body,
  })
}
