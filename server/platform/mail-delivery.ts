import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { Logger } from '../logger.ts'
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../private-files.ts'

// an unreachable server must not hold a request's courtesy e-mail for nodemailer's default of minutes;
// a query in the URL (smtp://…?connectionTimeout=…) still wins
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

/** What every mailer of the site is made from: SMTP_URL, DATA_DIR (for the outbox), MAIL_FROM, the log. */
export interface MailSettings {
  smtpUrl: string | undefined
  dataDir: string
  from: string
  logger: Logger
}

/** The one mail path of the site (SMTP_URL, else DATA_DIR/outbox): other senders compose, this delivers. */
export function mailDelivery({
  smtpUrl,
  dataDir,
}: {
  smtpUrl: string | undefined
  dataDir: string
}): (message: SendMailOptions) => Promise<void> {
  return smtpUrl ? smtpDelivery(smtpUrl) : outboxDelivery(outboxDir(dataDir))
}

/** Where messages are written when no SMTP_URL is set. */
export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox')
}

function smtpDelivery(smtpUrl: string): (message: SendMailOptions) => Promise<void> {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS })
  return async (message) => {
    await transport.sendMail(message)
  }
}

function outboxDelivery(outbox: string): (message: SendMailOptions) => Promise<void> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return async (message) => {
    const info = await transport.sendMail(message)
    if (!Buffer.isBuffer(info.message)) throw new Error('the stream transport returned no buffer')
    const name = `${Date.now()}-${crypto.randomBytes(8).toString('hex')}.eml`
    // written aside and renamed, so whatever reads the outbox never sees half a message
    const temporary = path.join(outbox, `.${name}.tmp`)
    await fs.promises.mkdir(outbox, { recursive: true, mode: PRIVATE_FOLDER_MODE })
    try {
      const handle = await fs.promises.open(temporary, 'wx', PRIVATE_FILE_MODE)
      try {
        await handle.writeFile(info.message)
        await handle.sync()
      } finally {
        await handle.close()
      }
      await fs.promises.rename(temporary, path.join(outbox, name))
    } catch (error) {
      await fs.promises.rm(temporary, { force: true })
      throw error
    }
  }
}
