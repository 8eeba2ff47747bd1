import type { Request, Response } from 'express'
import { sql, type Expression, type RawBuilder } from 'kysely'

/** RFC 4180 ends records with CRLF. */
export const CSV_LINE_END = '\r\n'
const FORMULA_START = /^[=+\-@\t\r]/
const NEEDS_QUOTES = /[",\r\n]/
const NEEDS_CARE = /^[=+\-@\t\r]|[",\r\n]/
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
  // most cells need neither: one test finds them
  if (!NEEDS_CARE.test(text)) return text
  if (FORMULA_START.test(text)) text = `'${text}`
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function csvRecord(values: readonly (string | number)[]): string {
  return values.map(csvCell).join(',') + CSV_LINE_END
}

/** Records already rendered, each ending in CSV_LINE_END (as text, or its UTF-8 bytes), and how many there are. */
export interface CsvChunk {
  text: string | Buffer
  records: number
}

/** What a download holds: pages of rows and how to render one, or records rendered already. */
export type CsvBody<Row> =
  | { pages: AsyncIterable<readonly Row[]>; record: (row: Row) => readonly (string | number)[] }
  | { chunks: AsyncIterable<CsvChunk> }

/**
 * Sends a CSV download: UTF-8 with a byte-order mark, an attachment with this name, never cached; the
 * header, then the records as they come, in chunks of about 64 KiB, waiting for 'drain' whenever the
 * socket is full, so memory stays flat however many rows there are. Returns how many records were
 * written, and whether the client stayed until the end; the caller then ends the response. If reading
 * fails once rows were sent, the download is cut (the 200 is gone: better a broken download than one
 * that looks whole).
 */
export async function sendCsv<Row>(
  res: Response,
  { fileName, header, ...body }: { fileName: string; header: readonly string[] } & CsvBody<Row>,
): Promise<{ written: number; complete: boolean }> {
  res.attachment(fileName)
  res.set({ 'Content-Type': 'text/csv; charset=utf-8', 'Cache-Control': 'private, no-store' })
  const chunks = 'chunks' in body ? body.chunks : renderPages(body.pages, body.record)
  let written = 0
  let buffer = UTF8_BOM + csvRecord(header)
  try {
    for await (const chunk of chunks) {
      written += chunk.records
      if (typeof chunk.text === 'string') {
        buffer += chunk.text
        if (buffer.length < FLUSH_BYTES) continue
        if (!(await writeChunk(res, buffer))) return { written, complete: false }
        buffer = ''
        continue
      }
      // bytes from the database go out as they are, after any text before them
      if (buffer && !(await writeChunk(res, buffer))) return { written, complete: false }
      buffer = ''
      if (!(await writeChunk(res, chunk.text))) return { written, complete: false }
    }
  } catch (error) {
    if (res.headersSent) res.destroy()
    else res.removeHeader('Content-Disposition') // nothing sent yet: the error handler answers instead
    throw error
  }
  if (buffer && !(await writeChunk(res, buffer))) return { written, complete: false }
  return { written, complete: true }
}

async function* renderPages<Row>(
  pages: AsyncIterable<readonly Row[]>,
  record: (row: Row) => readonly (string | number)[],
): AsyncGenerator<CsvChunk> {
  for await (const rows of pages) {
    let text = ''
    for (const row of rows) text += csvRecord(record(row))
    yield { text, records: rows.length }
  }
}

// FORMULA_START as the code of a text's first character (ascii() gives it, 0 for ''): = + - @ tab CR
const FORMULA_START_CODES = sql.raw('(61, 43, 45, 64, 9, 13)')
// NEEDS_QUOTES as a PostgreSQL regular expression (in ARE, \r and \n stand for CR and LF)
const NEEDS_QUOTES_SQL = sql.lit('[",\\r\\n]')

/**
 * csvCell in PostgreSQL, for a text value: the same formula prefix and the same quoting, so that records
 * the database renders are byte for byte those csvRecord renders. The value is written out several times
 * and PostgreSQL evaluates each one: give it a column, not a sub-select or a JSON extraction, which each
 * row would then run several times.
 */
export function csvCellSql(value: Expression<string>): RawBuilder<string> {
  // the prefix adds no character that needs quotes, so both tests look at the value itself
  const neutralised = sql<string>`CASE WHEN ascii(${value}) IN ${FORMULA_START_CODES} THEN '''' || ${value} ELSE ${value} END`
  return sql<string>`CASE
    WHEN ${value} ~ ${NEEDS_QUOTES_SQL} THEN '"' || replace(${neutralised}, '"', '""') || '"'
    ELSE ${neutralised}
  END`
}

/** csvCell in PostgreSQL, for an integer: a negative one is text starting with '-', so it gets the prefix. */
export function csvCountSql(value: Expression<number>): RawBuilder<string> {
  return sql<string>`CASE WHEN ${value} < 0 THEN '''' || ${value} ELSE ${value}::text END`
}

/** false when the client has gone. */
async function writeChunk(res: Response, chunk: string | Buffer): Promise<boolean> {
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
