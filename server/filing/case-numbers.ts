import crypto from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database, FilingBatchesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { chunks } from '../db/id-chunks.ts'
import type { BatchActor } from './filing-batches.ts'

/** The longest case number kept; a provider's are far shorter. */
const MAX_CASE_NUMBER = 64
/** How a provider's file may head its columns: AAA writes "Unique Claimant ID", a firm "Row ID". */
export const ROW_ID_HEADER = /^(row id|unique claimant id|claimant id|unique id)$/i
export const CASE_HEADER = /^((aaa |jams |fedarb )?case (number|no\.?|#|id))$/i
/** The most problems a refusal lists: a file of thousands of bad lines would otherwise answer megabytes. */
const MAX_PROBLEMS_ANSWERED = 100

/** One line of a provider's case-number file. */
interface CaseLine {
  line: number
  rowId: string
  caseNumber: string
}

/**
 * The lines of a case-number CSV: a header naming a row ID column and a case number column (any others
 * are passed over), then one claimant a line. Every fault is collected, each naming its line, and thrown
 * together as one 400 (the first 100 listed, with their total): nothing is imported from a file with any.
 */
export function parseCaseNumbers(text: string, rowIdsInBatch: ReadonlyMap<string, number>): CaseLine[] {
  const records = parseCsv(text.replace(/^\ufeff/, ''))
  const [header, ...rest] = records
  const rowColumn = header?.fields.findIndex((cell) => ROW_ID_HEADER.test(cell.trim())) ?? -1
  const caseColumn = header?.fields.findIndex((cell) => CASE_HEADER.test(cell.trim())) ?? -1
  if (!header || rowColumn < 0 || caseColumn < 0) {
    throw refusedFile('case-number', [
      'line 1: the header must name a row ID column ("Row ID" or "Unique Claimant ID") and a case number column ("Case Number")',
    ])
  }
  const problems: string[] = []
  const rowSeen = new Map<string, number>()
  const caseSeen = new Map<string, number>()
  const lines: CaseLine[] = []
  for (const { line, fields } of rest) {
    if (fields.every((cell) => cell.trim() === '')) continue
    const rowId = (fields[rowColumn] ?? '').trim()
    const caseNumber = (fields[caseColumn] ?? '').trim()
    if (rowId === '') problems.push(`line ${line}: no row ID`)
    else if (!rowIdsInBatch.has(rowId)) problems.push(`line ${line}: row ID ${rowId} is not in this batch`)
    else if (rowSeen.has(rowId))
      problems.push(`line ${line}: row ID ${rowId} is on line ${rowSeen.get(rowId)} too`)
    if (caseNumber === '') problems.push(`line ${line}: no case number`)
    else if (caseNumber.length > MAX_CASE_NUMBER)
      problems.push(`line ${line}: the case number is over ${MAX_CASE_NUMBER} characters`)
    else if (caseSeen.has(caseNumber)) {
      problems.push(`line ${line}: case number ${caseNumber} is on line ${caseSeen.get(caseNumber)} too`)
    }
    if (rowId !== '' && !rowSeen.has(rowId)) rowSeen.set(rowId, line)
    if (caseNumber !== '' && !caseSeen.has(caseNumber)) caseSeen.set(caseNumber, line)
    lines.push({ line, rowId, caseNumber })
  }
  if (lines.length === 0 && problems.length === 0) problems.push('the file has no line after its header')
  if (problems.length > 0) throw refusedFile('case-number', problems)
  return lines
}

/**
 * Imports a filing batch's case numbers: each onto the claim's row in the batch and onto the claim (the
 * dashboards filter by it, the evidence bundle and the claimant's page show it), with one audit entry
 * naming the file's SHA-256, all in one transaction. A case number another claim has already is refused
 * with its line, and then nothing is changed.
 */
export async function importCaseNumbers(
  db: Kysely<Database>,
  {
    batch,
    text,
    evidenceKey,
    by,
  }: { batch: Selectable<FilingBatchesTable>; text: string; evidenceKey: Buffer; by: BatchActor },
): Promise<number> {
  if (batch.kind !== 'filing' || batch.status !== 'ready') {
    throw new AppError('CONFLICT', {
      status: 409,
      message: `batch ${batch.id} is ${batch.kind === 'filing' ? batch.status : 'a notice batch'}: case numbers go onto a ready filing batch`,
    })
  }
  const members = await db
    .selectFrom('filing_batch_claims')
    .select(['claim_id', 'row_id'])
    .where('batch_id', '=', batch.id)
    .execute()
  const rowIds = new Map(members.map((member) => [member.row_id ?? '', Number(member.claim_id)]))
  const lines = parseCaseNumbers(text, rowIds)
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const taken: string[] = []
      for (const part of chunks(lines)) {
        const others = await trx
          .selectFrom('claims')
          .select(['id', 'case_number'])
          .where('app', '=', batch.app)
          .where(
            'case_number',
            'in',
            part.map((line) => line.caseNumber),
          )
          .execute()
        const holder = new Map(others.map((row) => [row.case_number!, Number(row.id)]))
        for (const line of part) {
          const claimId = holder.get(line.caseNumber)
          if (claimId !== undefined && claimId !== rowIds.get(line.rowId)) {
            taken.push(`line ${line.line}: case number ${line.caseNumber} is claim ${claimId}'s already`)
          }
        }
      }
      if (taken.length > 0) throw refusedFile('case-number', taken)
      for (const line of lines) {
        const claimId = rowIds.get(line.rowId)!
        await trx
          .updateTable('filing_batch_claims')
          .set({ case_number: line.caseNumber })
          .where('batch_id', '=', batch.id)
          .where('claim_id', '=', claimId)
          .execute()
        await trx
          .updateTable('claims')
          .set({ case_number: line.caseNumber })
          .where('id', '=', claimId)
          .execute()
      }
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.accountId,
        actor: by.actor,
        app: batch.app,
        action: 'case_numbers_imported',
        detail: `filing batch ${batch.id}: ${lines.length} case numbers (file SHA-256 ${crypto.createHash('sha256').update(text, 'utf8').digest('hex')})`,
      })
    }),
  )
  return lines.length
}

/** A CSV's records with the line each starts on (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const records: { line: number; fields: string[] }[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let start = 1
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"'
        index++
      } else if (char === '"') quoted = false
      else {
        if (char === '\n') line++
        field += char
      }
    } else if (char === '"' && field === '') quoted = true
    else if (char === ',') {
      fields.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++
      fields.push(field)
      records.push({ line: start, fields })
      fields = []
      field = ''
      line++
      start = line
    } else field += char
  }
  if (field !== '' || fields.length > 0) {
    fields.push(field)
    records.push({ line: start, fields })
  }
  return records
}

/**
 * The 400 of a CSV import with faulty lines (`file`: "case-number", "certified-mail"): the first 100
 * problems, each naming its line, and their count; the import keeps nothing.
 */
export function refusedFile(file: string, problems: string[]): AppError {
  const listed = problems.slice(0, MAX_PROBLEMS_ANSWERED)
  const more = problems.length - listed.length
  return new AppError('BAD_REQUEST', {
    status: 400,
    message: `the ${file} file was not imported:\n${listed.join('\n')}${more > 0 ? `\n… and ${more.toLocaleString('en-US')} more` : ''}`,
    details: { problems: listed, problemCount: problems.length, claimIds: [] },
  })
}
