import crypto from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { AwardsImported } from '../../src/api/payouts.ts'
import { AppError } from '../../src/app-error.ts'
import { formatCents, parseCents } from '../../src/money.ts'
import type { ReviewConfig } from '../../src/review-config.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { CASE_HEADER, parseCsv, refusedFile, ROW_ID_HEADER } from '../filing/case-numbers.ts'
import { readClaimsToAward, writeAwards, type AwardActor } from './awards.ts'

/** How a provider's or a firm's award file may head its amount column. */
const AMOUNT_HEADER = /^(award|amount|award amount|gross award)( \(\$\)| \(usd\))?$/i
/** How a firm's award file may head the costs it advanced on each claim (an optional column). */
const COSTS_HEADER = /^(costs|case costs|costs advanced)( \(\$\)| \(usd\))?$/i

/** One line of an award file: the claim it names (by case number or row ID), its award and costs. */
export interface AwardLine {
  line: number
  key: string
  cents: number
  /** The costs the firm advanced on the claim; 0 when the file has no costs column or the cell is empty. */
  costsCents: number
}

/** Which column names the claims: the provider's case number, or the row ID of the filing batch. */
export type AwardKey = 'caseNumber' | 'rowId'

/** A problem of the file, at its line (0: the file as a whole). */
interface LineProblem {
  line: number
  text: string
}

/**
 * The lines of an award CSV: a header naming a case number column ("Case Number") or a row ID column
 * ("Row ID", "Unique Claimant ID"), the case number taken when both are there, an amount column
 * ("Award", "Amount", "Award Amount"), and optionally the costs advanced on each claim ("Costs", "Case
 * Costs"; an empty cell is none); any other column is passed over. Each line's faults are collected
 * (no claim named, an amount unreadable or $0.00, costs unreadable or above the award, a claim named on
 * an earlier line too).
 */
export function parseAwardFile(text: string): { key: AwardKey; lines: AwardLine[]; problems: LineProblem[] } {
  const [header, ...rest] = parseCsv(text.replace(/^\ufeff/, ''))
  const cells = header?.fields.map((cell) => cell.trim()) ?? []
  const caseColumn = cells.findIndex((cell) => CASE_HEADER.test(cell))
  const keyColumn = caseColumn >= 0 ? caseColumn : cells.findIndex((cell) => ROW_ID_HEADER.test(cell))
  const amountColumn = cells.findIndex((cell) => AMOUNT_HEADER.test(cell))
  const costsColumn = cells.findIndex((cell) => COSTS_HEADER.test(cell))
  if (keyColumn < 0 || amountColumn < 0) {
    throw refusedFile('award', [
      'line 1: the header must name a case number column ("Case Number") or a row ID column ("Row ID"), and an amount column ("Award", "Amount" or "Award Amount")',
    ])
  }
  const key: AwardKey = caseColumn >= 0 ? 'caseNumber' : 'rowId'
  const what = key === 'caseNumber' ? 'case number' : 'row ID'
  const problems: LineProblem[] = []
  const lines: AwardLine[] = []
  const seen = new Map<string, number>()
  for (const { line, fields } of rest) {
    if (fields.every((cell) => cell.trim() === '')) continue
    const value = (fields[keyColumn] ?? '').trim()
    if (value === '') problems.push({ line, text: `no ${what}` })
    else if (seen.has(value))
      problems.push({ line, text: `${what} ${value} is on line ${seen.get(value)} too` })
    else seen.set(value, line)
    let cents: number | undefined
    try {
      cents = parseCents(fields[amountColumn] ?? '', 'the award')
      if (cents === 0) problems.push({ line, text: 'the award is $0.00; leave a claim that won nothing out' })
    } catch (error) {
      if (!(error instanceof AppError)) throw error
      problems.push({ line, text: error.message })
    }
    const costs = lineCosts({ cell: costsColumn < 0 ? '' : (fields[costsColumn] ?? ''), cents })
    if ('problem' in costs) problems.push({ line, text: costs.problem })
    else if (value !== '' && cents !== undefined) lines.push({ line, key: value, cents, ...costs })
  }
  if (lines.length === 0 && problems.length === 0)
    problems.push({ line: 0, text: 'the file has no line after its header' })
  return { key, lines, problems }
}

/** A line's costs cell in cents (empty: none), or what is wrong with it; never above the line's award. */
function lineCosts({
  cell,
  cents,
}: {
  cell: string
  cents: number | undefined
}): { costsCents: number } | { problem: string } {
  if (cell.trim() === '') return { costsCents: 0 }
  let costsCents: number
  try {
    costsCents = parseCents(cell, 'the costs')
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return { problem: error.message }
  }
  if (cents !== undefined && costsCents > cents) {
    return {
      problem: `the costs (${formatCents(costsCents)}) are more than the award (${formatCents(cents)}): the costs advanced on a claim are at most its award`,
    }
  }
  return { costsCents }
}

/**
 * Imports an award file for one app, all or nothing: every line must name a filed claim of the app
 * that no other line names, with a readable amount above $0.00 and costs, if any, no more than it. Any
 * fault refuses the whole file with a 400 listing each by line (refusedFile). Otherwise, in one
 * transaction, each claim is awarded with its costs (see writeAwards) and one audit entry, sealed on
 * the evidence chain, names the count, the total, the costs and the file's SHA-256. A claim awarded
 * already is a fault like any other, so the same file imported twice is refused the second time.
 */
export async function importAwards(
  db: Kysely<Database>,
  {
    app,
    text,
    review,
    evidenceKey,
    by,
  }: { app: string; text: string; review: ReviewConfig; evidenceKey: Buffer; by: AwardActor },
): Promise<AwardsImported> {
  const { key, lines, problems } = parseAwardFile(text)
  const sha256 = crypto.createHash('sha256').update(text, 'utf8').digest('hex')
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const found = [...problems]
      const claimOf = await claimsByKey(trx, { app, key, values: lines.map((line) => line.key) })
      const firstLineOf = new Map<number, number>()
      const named: { line: AwardLine; claimId: number }[] = []
      for (const line of lines) {
        const claimId = claimOf.get(line.key)
        const what = key === 'caseNumber' ? `case number ${line.key}` : `row ID ${line.key}`
        if (claimId === undefined) found.push({ line: line.line, text: `no ${app} claim has ${what}` })
        else if (firstLineOf.has(claimId)) {
          found.push({ line: line.line, text: `claim ${claimId} is on line ${firstLineOf.get(claimId)} too` })
        } else {
          firstLineOf.set(claimId, line.line)
          named.push({ line, claimId })
        }
      }
      const { claims, problems: unfiled } = await readClaimsToAward(trx, {
        app,
        review,
        claimIds: named.map(({ claimId }) => claimId),
      })
      for (const { line, claimId } of named) {
        const problem = unfiled.get(claimId)
        if (problem) found.push({ line: line.line, text: `${problem}: only a filed claim is awarded` })
      }
      if (found.length > 0) {
        throw refusedFile(
          'award',
          found
            .sort((a, b) => a.line - b.line)
            .map(({ line, text }) => (line === 0 ? text : `line ${line}: ${text}`)),
        )
      }
      const awards = named.map(({ line, claimId }) => ({
        claim: claims.get(claimId)!,
        cents: line.cents,
        costsCents: line.costsCents,
      }))
      const totalCents = awards.reduce((sum, { cents }) => sum + cents, 0)
      const costsCents = awards.reduce((sum, award) => sum + award.costsCents, 0)
      await writeAwards(trx, { app, review, evidenceKey, by, awards, source: 'imported' })
      await writeAuditEntry(trx, evidenceKey, {
        ...by,
        app,
        action: 'awards_imported',
        detail: `${awards.length} awards, ${formatCents(totalCents)} in all${costsCents > 0 ? `, ${formatCents(costsCents)} costs advanced` : ''} (file SHA-256 ${sha256})`,
      })
      return { imported: awards.length, totalCents, costsCents, sha256 }
    }),
  )
}

/**
 * The app's claims each value names: by the case number on the claim, or by the row ID its filing
 * batch gave it (a row ID names one batch's claim, so one of another app is left out by the batch's app).
 */
async function claimsByKey(
  trx: Transaction<Database>,
  { app, key, values }: { app: string; key: AwardKey; values: string[] },
): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  for (let start = 0; start < values.length; start += 1000) {
    const part = values.slice(start, start + 1000)
    const rows =
      key === 'caseNumber'
        ? await trx
            .selectFrom('claims')
            .select(['id as claim_id', 'case_number as value'])
            .where('app', '=', app)
            .where('case_number', 'in', part)
            .execute()
        : await trx
            .selectFrom('filing_batch_claims as member')
            .innerJoin('filing_batches as batch', 'batch.id', 'member.batch_id')
            .select(['member.claim_id', 'member.row_id as value'])
            .where('batch.app', '=', app)
            .where('member.row_id', 'in', part)
            .execute()
    for (const row of rows) if (row.value !== null) found.set(row.value, Number(row.claim_id))
  }
  return found
}
