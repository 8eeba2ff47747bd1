import type { PdfPart } from '../agreements/agreement-pdf.ts'
import { startRequestThread, threadEntry, type RequestThread } from '../threads/request-thread.ts'

/** One filing PDF: a notice, a demand, counsel's statement, or a batch's notices in one document. */
export interface FilingPdfRequest {
  title: string
  /** The document's date (epoch ms): the batch's, so a batch's documents never change once made. */
  createdAt: number
  parts: PdfPart[]
}

/** Makes the PDFs of notice and filing batches. */
export interface FilingPdfs {
  make(request: FilingPdfRequest): Promise<Buffer>
  stop(): Promise<void>
}

/**
 * Renders filing PDFs in a worker thread of their own, apart from the agreements' (a download must not
 * wait behind a batch): a batch asks for one PDF at a time, so the thread's queue stays short and the
 * batch's memory bounded. The thread starts with the first PDF and is started again if it fails.
 */
export function filingPdfThread(): FilingPdfs {
  let thread: RequestThread<FilingPdfRequest, Uint8Array> | undefined
  return {
    async make(request) {
      if (!thread || thread.ended) {
        thread = startRequestThread<FilingPdfRequest, Uint8Array>(
          threadEntry('filing-pdf-thread', import.meta.url),
          {},
          // ten thousand PDFs in a row: without a ceiling the heap grows by hundreds of MB before V8
          // collects; the largest document (a notice batch's combined PDF) needs far less than this
          { maxOldGenerationSizeMb: 128 },
        )
      }
      const pdf = await thread.ask(request)
      return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
    },
    async stop() {
      await thread?.stop()
    },
  }
}
