import type { Response } from 'express'

/** RFC 4180 ends records with CRLF. */
export const CSV_LINE_END = '\r\n'
const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/
const FLUSH_BYTES = 64 * 1024

/**
 * One CSV cell. A cell a spreadsheet would run as a formula gets a leading single quote; a cell holding
 * a quote, comma or line break is quoted, its quotes doubled (RFC 4180).
 * @example csvCell('=HYPERLINK("x")') // '"\'=HYPERLINK(""x"")"'
 */
export function csvCell(value: string | number): string {
  let text = String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvRecord(values: readonly (string | number)[]): string {
  return values.map(csvCell).join(',') + CSV_LINE_END
}

/** Starts a CSV download: UTF-8, an attachment with this name, never cached. */
export function startCsvDownload(res: Response, fileName: string): void {
  res.attachment(fileName)
  res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Cache-Control': 'private, no-store' })
}

/**
 * Writes records to the response as they come, in chunks of about 64 KiB, waiting for 'drain' whenever
 * the socket is full, so memory stays flat however many there are. Returns how many were written, and
 * whether the client stayed until the end (the response is then still open: the caller ends it).
 */
export async function writeCsvRecords(
  res: Response,
  records: AsyncIterable<string>,
): Promise<{ written: number; complete: boolean }> {
  let written = 0
  let buffer = ''
  for await (const record of records) {
    buffer += record
    written += 1
    if (buffer.length >= FLUSH_BYTES) {
      if (!(await writeChunk(res, buffer))) return { written, complete: false }
      buffer = ''
    }
  }
  if (buffer && !(await writeChunk(res, buffer))) return { written, complete: false }
  return { written, complete: true }
}

/** false when the client has gone. */
async function writeChunk(res: Response, chunk: string): Promise<boolean> {
  if (res.destroyed) return false
  if (res.write(chunk)) return true
  return new Promise((resolve) => {
    const settle = (open: boolean) => () => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(open)
    }
    const onDrain = settle(true)
    const onClose = settle(false)
    res.on('drain', onDrain)
    res.on('close', onClose)
  })
}
