import { renderHtmlPdf } from '../agreements/agreement-pdf.ts'
import { serveRequests } from '../threads/serve-requests.ts'
import type { FilingPdfRequest } from './filing-pdfs.ts'

// The filing PDF thread's work (filing-pdf-thread.ts starts it, at low priority): renders notices,
// demands and counsel's statements, off the server's event loop.

serveRequests<FilingPdfRequest, Uint8Array>(async ({ title, createdAt, parts }) => {
  const pdf = await renderHtmlPdf({ title, createdAt: new Date(createdAt), lang: 'en-US', parts })
  // a small Buffer may share its memory with others: move only one that owns it
  const owned = pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? pdf : new Uint8Array(pdf)
  return { reply: owned, transfer: [owned.buffer as ArrayBuffer] }
})
