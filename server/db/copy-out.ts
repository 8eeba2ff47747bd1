import type { Readable } from 'node:stream'
import type { CompiledQuery, Kysely } from 'kysely'
import type pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'
import type { Database } from './database.ts'
import { connectPostgres } from './create-db.ts'

/** The start of every binary COPY stream: the signature, then 32-bit flags and extension length. */
const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
const HEADER_BYTES = SIGNATURE.length + 8
/** A tuple's field count (16 bits) then its one field's length (32 bits). */
const TUPLE_PREFIX_BYTES = 6
const TRAILER = -1

/**
 * The one text column of a PostgreSQL query, value after value, as raw UTF-8 bytes straight from the
 * connection: `COPY (query) TO STDOUT (FORMAT binary)` through pg-copy-streams, read at the pace the
 * consumer asks for. Binary, because its text is the column's bytes unescaped, so nothing is decoded or
 * built per row in JavaScript. Each yield holds the values of one network read, concatenated, and how
 * many they are.
 *
 * COPY takes no bind parameters, so the compiled query's are written into it as literals (escaped by
 * the driver). The statement runs in a read-only transaction without the statement timeout: the
 * consumer's pace, a slow download, decides how long it takes. Stopping early ends the connection, which
 * ends the COPY on the server.
 */
export async function* copyColumnOut(
  db: Kysely<Database>,
  query: CompiledQuery,
): AsyncGenerator<{ bytes: Buffer; count: number }> {
  const client = await connectPostgres(db)
  let stream: Readable | undefined
  let ended = false
  try {
    await client.query('BEGIN READ ONLY')
    await client.query('SET LOCAL statement_timeout = 0')
    stream = client.query(copyTo(`COPY (${inlineParameters(query, client)}) TO STDOUT (FORMAT binary)`))
    let pending: Buffer = Buffer.alloc(0)
    let started = false
    for await (const data of stream as AsyncIterable<Buffer>) {
      const buffer: Buffer = pending.length > 0 ? Buffer.concat([pending, data]) : data
      let offset = 0
      if (!started) {
        if (buffer.length < HEADER_BYTES) {
          pending = buffer
          continue
        }
        if (!buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE))
          throw new Error('not a binary COPY stream')
        const extension = buffer.readUInt32BE(SIGNATURE.length + 4)
        if (buffer.length < HEADER_BYTES + extension) {
          pending = buffer
          continue
        }
        offset = HEADER_BYTES + extension
        started = true
      }
      const values: Buffer[] = []
      while (!ended && buffer.length - offset >= 2) {
        const fields = buffer.readInt16BE(offset)
        if (fields === TRAILER) {
          ended = true
          break
        }
        if (fields !== 1) throw new Error(`COPY sent ${fields} columns where one was asked for`)
        if (buffer.length - offset < TUPLE_PREFIX_BYTES) break
        const length = buffer.readInt32BE(offset + 2)
        if (length < 0) throw new Error('COPY sent a NULL value')
        if (buffer.length - offset - TUPLE_PREFIX_BYTES < length) break
        offset += TUPLE_PREFIX_BYTES
        values.push(buffer.subarray(offset, offset + length))
        offset += length
      }
      // copied: a subarray would keep this whole network read alive with it
      pending = Buffer.from(buffer.subarray(offset))
      if (values.length > 0) yield { bytes: Buffer.concat(values), count: values.length }
    }
    if (!ended) throw new Error('the COPY stream ended before its trailer')
    await client.query('COMMIT')
  } finally {
    stream?.destroy()
    // a consumer that stopped early, or an error, leaves the COPY or the transaction open on this
    // connection: it is closed rather than given back to the pool
    client.release(ended ? undefined : true)
  }
}

/** The compiled query with each $n replaced by its value as a literal, outside quoted text only. */
function inlineParameters({ sql, parameters }: CompiledQuery, client: pg.PoolClient): string {
  let out = ''
  let quote: string | undefined
  for (let index = 0; index < sql.length; index++) {
    const char = sql[index]!
    if (quote) {
      if (char === quote) quote = undefined
      out += char
      continue
    }
    if (char === "'" || char === '"') {
      quote = char
      out += char
      continue
    }
    const slot = char === '$' ? /^\d+/.exec(sql.slice(index + 1))?.[0] : undefined
    if (slot === undefined) {
      out += char
      continue
    }
    const value = parameters[Number(slot) - 1]
    if (typeof value === 'number' && Number.isFinite(value)) out += String(value)
    else if (typeof value === 'string') out += client.escapeLiteral(value)
    else throw new Error(`COPY query parameter $${slot} is neither text nor a number`)
    index += slot.length
  }
  return out
}
