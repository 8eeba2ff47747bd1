import type { SendMailOptions } from 'nodemailer'
import { linkMail, mailDelivery, outboxDir } from '../../agreements/agreement-mailer.ts'
import type { Logger } from '../../logger.ts'
import { INVITE_TTL_MS } from '../staff-invites.ts'

export interface InviteMail {
  to: string
  name: string
  /** The whole link, token and all: never logged. */
  url: string
}

export interface InviteMailer {
  /** Never rejects: true once delivered (or written to the outbox); a failure is logged without the address. */
  sendInvite(mail: InviteMail): Promise<boolean>
  /** Where the messages go, for the command line to say: 'SMTP (SMTP_URL)' or the outbox folder. */
  destination: string
}

/** Staff invitations, through the site's one mail path (SMTP_URL, else DATA_DIR/outbox). */
export function createInviteMailer({
  smtpUrl,
  dataDir,
  from,
  logger,
}: {
  smtpUrl: string | undefined
  dataDir: string
  from: string
  logger: Logger
}): InviteMailer {
  const deliver = mailDelivery({ smtpUrl, dataDir })
  return {
    destination: smtpUrl ? 'SMTP (SMTP_URL)' : outboxDir(dataDir),
    async sendInvite(mail) {
      try {
        await deliver(composeInvite(from, mail))
        return true
      } catch (error) {
        // an SMTP error's text can quote the recipient: only its code is logged
        const code = (error as { code?: unknown } | null)?.code
        logger.warn({ code: typeof code === 'string' ? code : 'unknown' }, 'staff invitation e-mail not sent')
        return false
      }
    },
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
