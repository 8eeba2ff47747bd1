import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { copyColumnOut } from '../db/copy-out.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { chunks } from '../db/id-chunks.ts'

/** A claim's signed agreement HTML ('' for a claim without one; several joined in the order signed). */
export interface SignedAgreement {
  claimId: number
  html: string
}

/** Claims whose agreements (some 17 KB of HTML each) SQLite reads at once. */
const SQLITE_PAGE = 50

/**
 * The signed agreement of each of `claimIds`, by ascending claim id, one claim at a time, each HTML made
 * a string only as its claim is given. PostgreSQL's are read as the raw bytes of a COPY, on a connection
 * of their own (a signed agreement never changes, so the caller's transaction need not read them): rows
 * read the usual way become strings while the rest of their page is still on its way, outlive V8's
 * young generation, and a build's 10,000 of them piled up as garbage in the old one. SQLite answers a
 * page at once, in the caller's transaction.
 */
export async function* signedAgreements({
  db,
  trx,
  claimIds,
}: {
  db: Kysely<Database>
  trx: Transaction<Database>
  claimIds: readonly number[]
}): AsyncGenerator<SignedAgreement> {
  const ids = [...claimIds].sort((a, b) => a - b)
  if (isPostgresDb<Database>(db)) {
    for (const page of chunks(ids)) yield* copiedPage(db, page)
    return
  }
  for (const page of chunks(ids, SQLITE_PAGE)) {
    const records = await trx
      .selectFrom('agreement_records')
      .select(['claim_id', 'html'])
      .where('claim_id', 'in', page)
      .orderBy('id')
      .execute()
    const html = new Map<number, string[]>()
    for (const record of records) {
      const claimId = Number(record.claim_id)
      html.set(claimId, [...(html.get(claimId) ?? []), record.html])
    }
    for (const claimId of page) yield { claimId, html: (html.get(claimId) ?? []).join('\n') }
  }
}

/**
 * One page's agreements from PostgreSQL, ordered by claim, each COPY value framed as
 * `<claim id> <length in bytes> <html>` (copyColumnOut gives the values of a network read end to end).
 */
async function* copiedPage(db: Kysely<Database>, ids: readonly number[]): AsyncGenerator<SignedAgreement> {
  const query = db
    .selectFrom('agreement_records')
    .select(sql<string>`claim_id || ' ' || octet_length(html) || ' ' || html`.as('framed'))
    .where('claim_id', 'in', ids)
    .orderBy('claim_id')
    .orderBy('id')
    .compile()
  let next = 0
  // kept as bytes until the claim is given: a claim's last agreement in a network read waits for the next
  let reading: { claimId: number; parts: Buffer[] } | undefined
  // every claim of the page below `before` is read whole: given, '' for one without an agreement
  function* giveBefore(before: number): Generator<SignedAgreement> {
    while (next < ids.length && ids[next]! < before) {
      const claimId = ids[next++]!
      const parts = reading?.claimId === claimId ? reading.parts : []
      yield { claimId, html: parts.map((part) => part.toString('utf8')).join('\n') }
    }
  }
  for await (const { bytes } of copyColumnOut(db, query)) {
    for (let offset = 0; offset < bytes.length;) {
      const idEnd = bytes.indexOf(0x20, offset)
      const lengthEnd = bytes.indexOf(0x20, idEnd + 1)
      const claimId = Number(bytes.toString('latin1', offset, idEnd))
      const end = lengthEnd + 1 + Number(bytes.toString('latin1', idEnd + 1, lengthEnd))
      if (reading?.claimId !== claimId) {
        yield* giveBefore(claimId)
        reading = { claimId, parts: [] }
      }
      reading.parts.push(bytes.subarray(lengthEnd + 1, end))
      offset = end
    }
  }
  yield* giveBefore(Infinity)
}
