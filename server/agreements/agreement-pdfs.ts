import { AppError } from '../../src/app-error.ts'
import { LOCALES, type Dictionary, type Locale } from '../../src/translate.ts'
import type { Languages } from '../forms/languages.ts'
import type { Logger } from '../logger.ts'
import { startRequestThread, threadEntry, type RequestThread } from '../threads/request-thread.ts'
import type { AgreementAudit } from './agreement-audit.ts'
import type { PdfCertificate } from './pdf-seal.ts'

/** A signed agreement to print: its stored HTML, its title and its audit details. */
export interface AgreementPdfDocument {
  html: string
  title: string
  audit: AgreementAudit
}

/** Makes the PDFs of signed agreements: every download, e-mail copy and evidence bundle asks this. */
export interface AgreementPdfs {
  /** The agreement as a PDF sealed with the firm's certificate, labelled in the language it was signed in. */
  make(document: AgreementPdfDocument): Promise<Buffer>
  stop(): Promise<void>
}

/** What the PDF thread (agreement-pdf-thread.ts) is started with. */
export interface PdfThreadData {
  certificate: PdfCertificate
  /** TSA_URL: the time-stamp authority whose token goes into each seal; unset: none. */
  tsaUrl: string | undefined
  /** The server's texts per language (Languages.dictionary), for the audit page's labels. */
  dictionaries: Partial<Record<Locale, Dictionary>>
}

/** The PDF thread's answer: the sealed PDF, and why its seal has no time-stamp when it should. */
export interface PdfThreadReply {
  pdf: Uint8Array
  timestampProblem: string | undefined
}

/** PDFs waiting beyond the one being made; past this a download is refused with 503 until the queue drains. */
export const PDF_QUEUE_LIMIT = 20

/**
 * Renders and seals agreement PDFs in a worker thread, one at a time: a PDF is long CPU work and much
 * memory, which every claim and page request would otherwise wait behind on the event loop, and one at
 * a time bounds what a burst of downloads can take from a process. The thread
 * starts with the first PDF and is started again if it fails.
 */
export function agreementPdfThread({
  certificate,
  tsaUrl,
  languages,
  logger,
}: {
  certificate: PdfCertificate
  tsaUrl: string | undefined
  languages: Pick<Languages, 'dictionary'>
  logger: Pick<Logger, 'error'>
}): AgreementPdfs {
  const data: PdfThreadData = {
    certificate,
    tsaUrl,
    dictionaries: Object.fromEntries(LOCALES.map((locale) => [locale, languages.dictionary(locale)])),
  }
  let thread: RequestThread<AgreementPdfDocument, PdfThreadReply> | undefined
  let queue: Promise<unknown> = Promise.resolve()
  let waiting = 0
  const pdfThread = () => {
    if (!thread || thread.ended) {
      thread = startRequestThread<AgreementPdfDocument, PdfThreadReply>(
        threadEntry('agreement-pdf-thread', import.meta.url),
        data,
      )
    }
    return thread
  }
  return {
    async make(document) {
      if (waiting >= PDF_QUEUE_LIMIT) {
        throw new AppError('BUSY', {
          status: 503,
          message: 'too many agreement PDFs are being made right now; please try again in a minute',
          headers: { 'Retry-After': '30' },
        })
      }
      waiting++
      const made = queue.then(() => {
        waiting--
        return pdfThread().ask(document)
      })
      queue = made.catch(() => undefined)
      const { pdf, timestampProblem } = await made
      if (timestampProblem !== undefined) {
        logger.error({ err: timestampProblem }, 'agreement PDF sealed without a time-stamp')
      }
      return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
    },
    async stop() {
      await thread?.stop()
    },
  }
}
