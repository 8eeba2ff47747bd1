import type { Request, Response } from 'express'

/** RFC 4180 ends records with CRLF. */
export const CSV_LINE_END = '\r\n'
const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/
const FLUSH_BYTES = 64 * 1024
/** Excel reads a CSV as the system's legacy code page unless it starts with UTF-8's byte-order mark. */
export const UTF8_BOM = '\ufeff'

/**
 * One CSV cell. A cell a spreadsheet would run as a formula gets a leading single quote; a cell holding
 * a quote, comma or line break is quoted, its quotes doubled (RFC 4180).
 * @example csvCell('=HYPERLINK("x")') // '"\'=HYPERLINK(""x"")"'
 */
export function csvCell(value: string | number): string {
  // a count is a plain number: nothing to quote or neutralise
  if (typeof value === 'number' && value >= 0) return String(value)
  let text = String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvRecord(values: readonly (string | number)[]): string {
  return values.map(csvCell).join(',') + CSV_LINE_END
}

/**
 * Sends a CSV download: UTF-8 with a byte-order mark, an attachment with this name, never cached; the header, then each page's
 * records as they come, in chunks of about 64 KiB, waiting for 'drain' whenever the socket is full, so
 * memory stays flat however many rows there are. Returns how many records were written, and whether the
 * client stayed until the end; the caller then ends the response. If reading a page fails once rows
 * were sent, the download is cut (the 200 is gone: better a broken download than one that looks whole).
 */
export async function sendCsv<Row>(
  res: Response,
  {
    fileName,
    header,
    pages,
    record,
  }: {
    fileName: string
    header: readonly string[]
    pages: AsyncIterable<readonly Row[]>
    record: (row: Row) => readonly (string | number)[]
  },
): Promise<{ written: number; complete: boolean }> {
  res.attachment(fileName)
  res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Cache-Control': 'private, no-store' })
  let written = 0
  let buffer = UTF8_BOM + csvRecord(header)
  try {
    for await (const rows of pages) {
      for (const row of rows) buffer += csvRecord(record(row))
      written += rows.length
      if (buffer.length >= FLUSH_BYTES) {
        if (!(await writeChunk(res, buffer))) return { written, complete: false }
        buffer = ''
      }
    }
  } catch (error) {
    if (res.headersSent) res.destroy()
    else res.removeHeader('Content-Disposition') // nothing sent yet: the error handler answers instead
    throw error
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

/**
 * `?check=1` on an export: the browser asks first whether the download would start (a session, a
 * known app, a valid search) and reports a refusal on the page, then lets the download itself stream
 * to disk, which a script's fetch could only hold in the tab's memory.
 */
export function isExportCheck(req: Request): boolean {
  return req.query.check === '1'
}
