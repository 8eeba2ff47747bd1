import type { SendMailOptions } from 'nodemailer'
import { linkMail } from '../platform/firm-mail.ts'
import { mailDelivery, outboxDir, type MailSettings } from '../platform/mail-delivery.ts'
import { INVITE_TTL_MS } from './staff-invites.ts'
import { SETUP_CODE_TTL_MS } from './two-factor/two-factor-account.ts'
import type { EvidenceDigestMail } from '../evidence/evidence-digest.ts'

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

/** The code that lets a sign-in show the QR code of a required two-factor set-up. */
export interface SetupCodeMail {
  account: { email: string; name: string }
  code: string
  /** The client address the sign-in came from. */
  address: string
}

/** Sign-in to an account was paused after repeated wrong passwords or codes. */
export interface SignInFailureNotice {
  account: { email: string; name: string }
  failures: number
  /** The client address of the latest failure. */
  address: string
}

export interface StaffMailer {
  /** Never rejects: true once delivered (or written to the outbox); a failure is logged without the address. */
  sendInvite(mail: InviteMail): Promise<boolean>
  /** As sendInvite, never rejects. */
  sendTwoFactorNotice(notice: TwoFactorNotice): Promise<boolean>
  /** As sendInvite, never rejects. */
  sendSetupCode(mail: SetupCodeMail): Promise<boolean>
  /** As sendInvite, never rejects. */
  sendEvidenceDigest(mail: EvidenceDigestMail): Promise<boolean>
  sendSignInFailureNotice(notice: SignInFailureNotice): Promise<boolean>
  /** Where the messages go, for the command line to say: 'SMTP (SMTP_URL)' or the outbox folder. */
  destination: string
}

/** The app's mailer, for a route that cannot work without one; createApp leaves it out only in tests that mail nobody. */
export function requireMailer(mailer: StaffMailer | undefined, what: string): StaffMailer {
  if (!mailer) throw new Error(`createApp was given no staffMailer: ${what} cannot be sent`)
  return mailer
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
    sendSetupCode: (mail) => send(composeSetupCode(from, mail), 'two-factor set-up code'),
    sendEvidenceDigest: (mail) => send(composeEvidenceDigest(from, mail), 'evidence digest'),
    sendSignInFailureNotice: (notice) =>
      send(composeSignInFailureNotice(from, notice), 'failed sign-ins notice'),
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

function composeSetupCode(from: string, { account: { email: to, name }, code, address }: SetupCodeMail) {
  const minutes = SETUP_CODE_TTL_MS / 60_000
  return linkMail({
    from,
    to,
    subject: 'Your code to set up two-factor sign-in',
    paragraphs: [
      `Hello ${name},`,
      `Someone signed in to your staff account on the claims dashboard with your password at ${utcMinute()}, from the address ${address}. Your firm requires two-factor sign-in, so the dashboard asks for this code before it shows the QR code to scan. It works for ${minutes} minutes:`,
      code,
      'If this was not you, someone else knows your password: do not give them this code, and ask an admin of your firm to disable your account now.',
    ],
  })
}

/**
 * The owner hears of every change at once, at the address only the owner reads: a change they did not
 * make means someone holds their password and their session, authenticator or mailbox.
 */
function composeTwoFactorNotice(
  from: string,
  { account: { email: to, name }, change, address }: TwoFactorNotice,
): SendMailOptions {
  const when = utcMinute()
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

function composeEvidenceDigest(
  from: string,
  { account: { email: to, name }, head, at }: EvidenceDigestMail,
): SendMailOptions {
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  return linkMail({
    from,
    to,
    subject: `Evidence ledger head, ${at.toISOString().slice(0, 10)}: entry ${head.seq}`,
    paragraphs: [
      `Hello ${name},`,
      `At ${when} the evidence ledger of the claims site ended at entry ${head.seq}, whose hash is:`,
      head.hash,
      `Keep this e-mail: it is a copy of the ledger's head outside the server. If npm run verify-evidence ever finds the ledger ending before entry ${head.seq}, or another hash at that entry, entries were removed or rewritten after this day.`,
    ],
  })
}

/**
 * Sent once when a run of failures pauses sign-in, not per guess: the owner learns that someone is
 * guessing, and why their own sign-in may be refused for a while.
 */
function composeSignInFailureNotice(
  from: string,
  { account: { email: to, name }, failures, address }: SignInFailureNotice,
): SendMailOptions {
  return linkMail({
    from,
    to,
    subject: 'Failed sign-ins to your staff account',
    paragraphs: [
      `Hello ${name},`,
      `There were ${failures} failed sign-ins in a row to your staff account on the claims dashboard (a wrong password or code), the latest at ${utcMinute()} from the address ${address}. Sign-in to your account is now paused for a while, longer after each further failure, until a sign-in succeeds.`,
      'If this was you, wait a few minutes and try again, or ask an admin of your firm to send you a new invitation to set a new password.',
      'If this was not you, someone is trying to guess your password or codes: tell an admin of your firm.',
    ],
  })
}

/** Now, to the minute, as the e-mails name it: 2026-11-26 19:05 UTC. */
function utcMinute(): string {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
