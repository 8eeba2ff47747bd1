import type { Attachment } from 'nodemailer'
import { asciiFileName, mimeContentDisposition } from '../content-disposition.ts'

/** A file attached to a claimant's e-mail. */
export interface MailAttachment {
  /** In the claimant's letters, e.g. 'José-Peña-Núñez-agreement.pdf'. */
  filename: string
  content: string | Buffer
  /** e.g. 'application/pdf', 'text/html; charset=utf-8' */
  contentType: string
}

const BASE64_LINE = /.{76}/g

/**
 * The attachment as a whole MIME part, headers written here: nodemailer names a file only by RFC 2231
 * (`filename*0*=utf-8''…`), with nothing for a reader that knows only `filename`, and lets no header of
 * an attachment override the Content-Disposition it builds. The content goes in base64, 76 to a line.
 */
export function mailAttachment({ filename, content, contentType }: MailAttachment): Attachment {
  const body = Buffer.from(content).toString('base64').replace(BASE64_LINE, '$&\r\n').replace(/\r\n$/, '')
  return {
    filename: false,
    raw: [
      `Content-Type: ${contentType}; name="${asciiFileName(filename)}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: ${mimeContentDisposition(filename)}`,
      '',
      body,
    ].join('\r\n'),
  }
}
