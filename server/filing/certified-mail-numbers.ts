import crypto from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database, FilingBatchesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { parseCsv, refusedFile } from './case-numbers.ts'
import type { BatchActor } from './filing-batches.ts'

/** The longest number kept: USPS certified mail numbers are 20 to 22 digits, often written with spaces. */
const MAX_TRACKING_NUMBER = 100
const CLAIM_HEADER = /^(claim( id| #| number)?)$/i
const TRACKING_HEADER =
  /^(tracking( number| no\.?| #)?|certified mail( number| no\.?| #)?|article number|usps tracking( number)?)$/i

interface TrackingLine {
  line: number
  claimId: number
  trackingNumber: string
}

/**
 * The lines of a certified-mail CSV: a header naming a claim ID column and a tracking number column (any
 * others are passed over), then one claimant a line. Every fault is collected, each naming its line, and
 * thrown together as one 400: nothing is imported from a file with any.
 */
export function parseTrackingNumbers(text: string, claimsInBatch: ReadonlySet<number>): TrackingLine[] {
  const [header, ...rest] = parseCsv(text.replace(/^\ufeff/, ''))
  const claimColumn = header?.fields.findIndex((cell) => CLAIM_HEADER.test(cell.trim())) ?? -1
  const trackingColumn = header?.fields.findIndex((cell) => TRACKING_HEADER.test(cell.trim())) ?? -1
  if (!header || claimColumn < 0 || trackingColumn < 0) {
    throw refusedFile('certified-mail', [
      'line 1: the header must name a claim ID column ("Claim ID") and a tracking number column ("Tracking Number" or "Certified Mail Number")',
    ])
  }
  const problems: string[] = []
  const claimSeen = new Map<number, number>()
  const numberSeen = new Map<string, number>()
  const lines: TrackingLine[] = []
  for (const { line, fields } of rest) {
    if (fields.every((cell) => cell.trim() === '')) continue
    const claimText = (fields[claimColumn] ?? '').trim()
    const trackingNumber = (fields[trackingColumn] ?? '').trim()
    const claimId = /^\d{1,15}$/.test(claimText) ? Number(claimText) : NaN
    if (claimText === '') problems.push(`line ${line}: no claim ID`)
    else if (!claimsInBatch.has(claimId))
      problems.push(`line ${line}: claim ${claimText} is not in this batch`)
    else if (claimSeen.has(claimId))
      problems.push(`line ${line}: claim ${claimId} is on line ${claimSeen.get(claimId)} too`)
    if (trackingNumber === '') problems.push(`line ${line}: no tracking number`)
    else if (trackingNumber.length > MAX_TRACKING_NUMBER)
      problems.push(`line ${line}: the tracking number is over ${MAX_TRACKING_NUMBER} characters`)
    else if (numberSeen.has(trackingNumber)) {
      // each claimant's notice is its own piece of certified mail
      problems.push(
        `line ${line}: tracking number ${trackingNumber} is on line ${numberSeen.get(trackingNumber)} too`,
      )
    }
    if (!Number.isNaN(claimId) && !claimSeen.has(claimId)) claimSeen.set(claimId, line)
    if (trackingNumber !== '' && !numberSeen.has(trackingNumber)) numberSeen.set(trackingNumber, line)
    lines.push({ line, claimId, trackingNumber })
  }
  if (lines.length === 0 && problems.length === 0) problems.push('the file has no line after its header')
  if (problems.length > 0) throw refusedFile('certified-mail', problems)
  return lines
}

/**
 * Imports a sent notice batch's certified mail numbers, each onto its claim's row in the batch, with one
 * audit entry naming the file's SHA-256, in one transaction. A line for a claim already given a number
 * replaces it (a corrected file). Refused with 409 before the batch is marked sent.
 */
export async function importTrackingNumbers(
  db: Kysely<Database>,
  {
    batch,
    text,
    evidenceKey,
    by,
  }: { batch: Selectable<FilingBatchesTable>; text: string; evidenceKey: Buffer; by: BatchActor },
): Promise<number> {
  if (batch.kind !== 'notice' || batch.sent_on === null) {
    throw new AppError('CONFLICT', {
      status: 409,
      message: `batch ${batch.id} is ${batch.kind === 'notice' ? 'not marked sent yet' : 'a filing batch'}: certified mail numbers go onto a notice batch marked sent`,
    })
  }
  const members = await db
    .selectFrom('filing_batch_claims')
    .select('claim_id')
    .where('batch_id', '=', batch.id)
    .execute()
  const lines = parseTrackingNumbers(text, new Set(members.map((member) => Number(member.claim_id))))
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      for (const line of lines) {
        await trx
          .updateTable('filing_batch_claims')
          .set({ tracking_number: line.trackingNumber })
          .where('batch_id', '=', batch.id)
          .where('claim_id', '=', line.claimId)
          .execute()
      }
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.accountId,
        actor: by.actor,
        app: batch.app,
        action: 'tracking_numbers_imported',
        detail: `notice batch ${batch.id}: ${lines.length} certified mail numbers (file SHA-256 ${crypto.createHash('sha256').update(text, 'utf8').digest('hex')})`,
      })
    }),
  )
  return lines.length
}
