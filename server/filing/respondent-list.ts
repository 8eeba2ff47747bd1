import crypto from 'node:crypto'
import type { Kysely } from 'kysely'
import {
  RESPONDENT_LIST_LABELS,
  UNMATCHED_LISTED,
  type RespondentList,
  type RespondentListImported,
} from '../../src/api/respondent-list.ts'
import { normalizePhone } from '../../src/phone.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { wakeScores } from '../fraud/fraud-repository.ts'
import { chunks } from '../db/id-chunks.ts'
import { parseCsv, refusedFile } from './case-numbers.ts'
import type { BatchActor } from './filing-batches.ts'

const EMAIL_HEADER = /^e-?mail( address)?$/i
const PHONE_HEADER = /^(phone|phone number|mobile|telephone)$/i
/** The claim's reference as the batches' files name it: the notices' "Claim ID", the filings' "Row ID". */
const REFERENCE_HEADER = /^(claim id|claim reference|reference|row id|unique claimant id)$/i
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const CLAIM_ID = /^\d{1,15}$/
/** A filing batch's row ID (rowIdOf): the batch's id, then the row. */
const ROW_ID = /^B(\d{1,15})-\d{5}$/i
const STORED_PHONE = /^\(\d{3}\) \d{3}-\d{4}$/

/** One line of the company's list: what it names a claimant by. */
interface ListLine {
  line: number
  /** The line's values as written, for the unmatched list. */
  value: string
  emails: string[]
  phones: string[]
  claimIds: number[]
  rowIds: { batchId: number; rowId: string }[]
}

/**
 * The lines of a company's list: a header naming one or more of an e-mail, a phone and a claim
 * reference column (any others are passed over), then a claimant a line, named by any of them. Every
 * fault is collected, each naming its line, and thrown together as one 400: nothing is imported from
 * a file with any.
 */
export function parseRespondentList(text: string): ListLine[] {
  const [header, ...rest] = parseCsv(text.replace(/^\ufeff/, ''))
  const columnOf = (pattern: RegExp) => header?.fields.findIndex((cell) => pattern.test(cell.trim())) ?? -1
  const columns = {
    email: columnOf(EMAIL_HEADER),
    phone: columnOf(PHONE_HEADER),
    ref: columnOf(REFERENCE_HEADER),
  }
  if (columns.email < 0 && columns.phone < 0 && columns.ref < 0) {
    throw refusedFile('company list', [
      'line 1: the header must name an e-mail column ("E-mail"), a phone column ("Phone") or a claim reference column ("Claim ID" or "Row ID")',
    ])
  }
  const problems: string[] = []
  const lines: ListLine[] = []
  for (const { line, fields } of rest) {
    if (fields.every((cell) => cell.trim() === '')) continue
    const cell = (column: number) => (column < 0 ? '' : (fields[column] ?? '').trim())
    const [email, phone, ref] = [cell(columns.email), cell(columns.phone), cell(columns.ref)]
    const parsed: ListLine = {
      line,
      value: [email, phone, ref].filter((value) => value !== '').join(', '),
      emails: [],
      phones: [],
      claimIds: [],
      rowIds: [],
    }
    if (parsed.value === '') problems.push(`line ${line}: no e-mail, phone or claim reference`)
    if (email !== '') {
      if (EMAIL.test(email)) parsed.emails.push(email.toLowerCase())
      else problems.push(`line ${line}: "${email}" is not an e-mail address`)
    }
    if (phone !== '') {
      const stored = normalizePhone(phone)
      if (STORED_PHONE.test(stored)) parsed.phones.push(stored)
      else problems.push(`line ${line}: "${phone}" is not a US phone number of 10 digits`)
    }
    if (ref !== '') {
      const row = ROW_ID.exec(ref)
      if (CLAIM_ID.test(ref)) parsed.claimIds.push(Number(ref))
      else if (row) parsed.rowIds.push({ batchId: Number(row[1]), rowId: ref.toUpperCase() })
      else problems.push(`line ${line}: "${ref}" is neither a claim ID (digits) nor a row ID (B12-00001)`)
    }
    lines.push(parsed)
  }
  if (lines.length === 0 && problems.length === 0) problems.push('the file has no line after its header')
  if (problems.length > 0) throw refusedFile('company list', problems)
  return lines
}

/**
 * Imports a company's list: each line's claims of the app (by e-mail, phone, claim ID or row ID) are
 * flagged with the list and made due for a new fraud score (the respondent_listed test deducts), with
 * one audit entry naming the file's SHA-256, in one transaction. Lines that name no claim are answered,
 * not refused: the company's list holds people who never filed.
 */
export async function importRespondentList(
  db: Kysely<Database>,
  {
    app,
    list,
    text,
    evidenceKey,
    by,
    now = Date.now(),
  }: { app: string; list: RespondentList; text: string; evidenceKey: Buffer; by: BatchActor; now?: number },
): Promise<RespondentListImported> {
  const lines = parseRespondentList(text)
  const found = await claimsNamed(db, app, lines)
  const matched = new Set<number>()
  const unmatched: { line: number; value: string }[] = []
  for (const line of lines) {
    const ids = found(line)
    if (ids.length === 0) unmatched.push({ line: line.line, value: line.value })
    for (const id of ids) matched.add(id)
  }
  const claimIds = [...matched].sort((a, b) => a - b)
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      for (const part of chunks(claimIds)) {
        await trx
          .insertInto('respondent_flags')
          .values(
            part.map((claimId) => ({ claim_id: claimId, list, imported_at: now, imported_by: by.actor })),
          )
          .onConflict((conflict) => conflict.columns(['claim_id', 'list']).doNothing())
          .execute()
        await wakeScores(trx, part, now)
      }
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.accountId,
        actor: by.actor,
        app,
        action: 'respondent_list_imported',
        detail: `${RESPONDENT_LIST_LABELS[list].toLowerCase()} list: ${lines.length} lines, ${claimIds.length} claims flagged (file SHA-256 ${crypto.createHash('sha256').update(text, 'utf8').digest('hex')})`,
      })
    }),
  )
  return {
    list,
    lines: lines.length,
    matched: claimIds.length,
    claimIds,
    unmatched: unmatched.slice(0, UNMATCHED_LISTED),
    unmatchedCount: unmatched.length,
  }
}

/** Reads the app's claims the lines name, by each key's own index; gives each line's claim ids. */
async function claimsNamed(
  db: Kysely<Database>,
  app: string,
  lines: readonly ListLine[],
): Promise<(line: ListLine) => number[]> {
  const byEmail = new Map<string, number[]>()
  const byPhone = new Map<string, number[]>()
  const ids = new Set<number>()
  const byRow = new Map<string, number>()
  const add = (map: Map<string, number[]>, key: string, id: number) =>
    map.set(key, [...(map.get(key) ?? []), id])
  for (const part of chunks([...new Set(lines.flatMap((line) => line.emails))])) {
    const rows = await db
      .selectFrom('claims')
      .select(['id', 'email'])
      .where('app', '=', app)
      .where('email', 'in', part)
      .execute()
    for (const row of rows) add(byEmail, row.email, Number(row.id))
  }
  for (const part of chunks([...new Set(lines.flatMap((line) => line.phones))])) {
    const rows = await db
      .selectFrom('claims')
      .select(['id', 'phone_number'])
      .where('app', '=', app)
      .where('phone_number', 'in', part)
      .execute()
    for (const row of rows) add(byPhone, row.phone_number, Number(row.id))
  }
  for (const part of chunks([...new Set(lines.flatMap((line) => line.claimIds))])) {
    const rows = await db
      .selectFrom('claims')
      .select('id')
      .where('app', '=', app)
      .where('id', 'in', part)
      .execute()
    for (const row of rows) ids.add(Number(row.id))
  }
  for (const part of chunks(lines.flatMap((line) => line.rowIds))) {
    const rows = await db
      .selectFrom('filing_batch_claims as member')
      .innerJoin('filing_batches as batch', 'batch.id', 'member.batch_id')
      .select(['member.claim_id', 'member.row_id'])
      .where('batch.app', '=', app)
      .where('member.batch_id', 'in', [...new Set(part.map((row) => row.batchId))])
      .where(
        'member.row_id',
        'in',
        part.map((row) => row.rowId),
      )
      .execute()
    for (const row of rows) byRow.set(row.row_id ?? '', Number(row.claim_id))
  }
  return (line) => [
    ...new Set([
      ...line.emails.flatMap((email) => byEmail.get(email) ?? []),
      ...line.phones.flatMap((phone) => byPhone.get(phone) ?? []),
      ...line.claimIds.filter((id) => ids.has(id)),
      ...line.rowIds.flatMap(({ rowId }) => (byRow.has(rowId) ? [byRow.get(rowId)!] : [])),
    ]),
  ]
}
