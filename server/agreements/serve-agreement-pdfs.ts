import { workerData } from 'node:worker_threads'
import { DEFAULT_LOCALE, parseLocale, translator } from '../../src/translate.ts'
import { serveRequests } from '../threads/serve-requests.ts'
import type { AgreementPdfDocument, PdfThreadData, PdfThreadReply } from './agreement-pdfs.ts'
import { pdfSealer, sealedAgreementPdf } from './pdf-seal.ts'

// The PDF thread's work (agreement-pdf-thread.ts starts it, at low priority): renders a signed agreement's PDF and seals it with the
// firm's certificate, off the server's event loop.

const { certificate, tsaUrl, dictionaries } = workerData as PdfThreadData
const sealer = pdfSealer(
  { p12: Buffer.from(certificate.p12), passphrase: certificate.passphrase },
  { tsaUrl },
)

serveRequests<AgreementPdfDocument, PdfThreadReply>(async (document) => {
  const locale = parseLocale(document.audit.locale) ?? DEFAULT_LOCALE
  const { pdf, timestampProblem } = await sealedAgreementPdf(sealer, {
    ...document,
    t: translator(dictionaries[locale]),
  })
  // a small Buffer may share its memory with others: move only one that owns it
  const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf)
  return { reply: { pdf: owned, timestampProblem }, transfer: [owned.buffer as ArrayBuffer] }
})
