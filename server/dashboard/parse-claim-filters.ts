import type { Request } from 'express'
import { sql, type Kysely, type SqlBool } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { ReviewConfig } from '../../src/review-config.ts'
import { LOCALES } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'
import { confirmedFilter, disownedFilter, statusFilter, type ClaimFilter } from './claim-filters.ts'
import { firmDayStart } from '../platform/csv-time.ts'
import { DAY_MS } from '../../src/durations.ts'
import { CLAIM_FRAUD_STANDINGS, type ClaimFraudStanding } from '../../src/api/fraud.ts'
import { FRAUD_TESTS, type FraudCode, type FraudConfig } from '../../src/fraud-config.ts'
import { fraudReasonFilter, fraudStandingFilter } from './fraud-filters.ts'

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * The dashboards' filters of an app's claims from the query: ?confirmed=yes|no|disowned, ?status= and ?reason=
 * (names from forms/base/review.json), ?assignee=me|none|<account id>, ?signedFrom= and ?signedTo=
 * (YYYY-MM-DD, both days included, in the firm's time zone), ?language=en|es, ?batch=<notice or filing
 * batch number>, ?case=<the provider's case number>, ?fraud=<a standing: hold, review, clear, cleared,
 * unscored> (by the app's thresholds) and ?fraudReason=<a code of forms/base/fraud.json>. Absent or empty is "all";
 * anything else is a 400 naming the parameter and what to send.
 */
export async function parseClaimFilters(
  query: Request['query'],
  {
    db,
    review,
    fraud,
    accountId,
  }: { db: Kysely<Database>; review: ReviewConfig; fraud: FraudConfig; accountId: number },
): Promise<ClaimFilter[]> {
  const filters: ClaimFilter[] = []
  const confirmed = textParam(query, 'confirmed')
  if (confirmed !== undefined) {
    if (confirmed !== 'yes' && confirmed !== 'no' && confirmed !== 'disowned') {
      throw badRequest('"confirmed" must be "yes", "no" or "disowned" (or left out for all claims)')
    }
    // "disowned": the e-mail's owner answered the copy's link with "This wasn't me"
    filters.push(confirmed === 'disowned' ? disownedFilter() : confirmedFilter(confirmed === 'yes'))
  }
  const status = textParam(query, 'status')
  if (status !== undefined) {
    const statuses = Object.keys(review.statuses)
    if (!statuses.includes(status)) {
      throw badRequest(`unknown status "${status}": use one of ${statuses.join(', ')}`)
    }
    filters.push(statusFilter(status, review.initial))
  }
  const reason = textParam(query, 'reason')
  if (reason !== undefined) {
    const reasons = Object.keys(review.reasons)
    if (!reasons.includes(reason)) {
      throw badRequest(`unknown reason "${reason}": use one of ${reasons.join(', ')}`)
    }
    filters.push({ label: `reason ${reason}`, holds: sql<SqlBool>`claims.review_reason = ${reason}` })
  }
  const assignee = textParam(query, 'assignee')
  if (assignee !== undefined) filters.push(await assigneeFilter(db, assignee, accountId))
  const language = textParam(query, 'language')
  if (language !== undefined) {
    if (!(LOCALES as readonly string[]).includes(language)) {
      throw badRequest(`unknown language "${language}": use one of ${LOCALES.join(', ')}`)
    }
    filters.push({ label: `language ${language}`, holds: sql<SqlBool>`claims.locale = ${language}` })
  }
  const batch = textParam(query, 'batch')
  if (batch !== undefined) {
    if (!/^\d{1,15}$/.test(batch)) throw badRequest('"batch" must be a batch\'s number')
    // a notice batch or a filing batch: they are numbered together
    const holds = sql<SqlBool>`(claims.filing_batch_id = ${Number(batch)} OR claims.notice_batch_id = ${Number(batch)})`
    filters.push({ label: `batch ${batch}`, holds, listed: { holds, is: true } })
  }
  const caseNumber = textParam(query, 'case')
  if (caseNumber !== undefined) {
    if (caseNumber.length > 64) throw badRequest('"case" is a case number of at most 64 characters')
    const holds = sql<SqlBool>`claims.case_number = ${caseNumber.trim()}`
    filters.push({ label: `case number ${caseNumber.trim()}`, holds, listed: { holds, is: true } })
  }
  const standing = textParam(query, 'fraud')
  if (standing !== undefined) {
    if (!(CLAIM_FRAUD_STANDINGS as readonly string[]).includes(standing)) {
      throw badRequest(`unknown fraud standing "${standing}": use one of ${CLAIM_FRAUD_STANDINGS.join(', ')}`)
    }
    filters.push(fraudStandingFilter(standing as ClaimFraudStanding, fraud))
  }
  const fraudReason = textParam(query, 'fraudReason')
  if (fraudReason !== undefined) {
    if (!(FRAUD_TESTS as readonly string[]).includes(fraudReason)) {
      throw badRequest(`unknown fraud reason "${fraudReason}": use one of ${FRAUD_TESTS.join(', ')}`)
    }
    filters.push(fraudReasonFilter(fraudReason as FraudCode))
  }
  filters.push(...signedFilters(query))
  return filters
}

async function assigneeFilter(
  db: Kysely<Database>,
  assignee: string,
  accountId: number,
): Promise<ClaimFilter> {
  if (assignee === 'me') {
    return { label: 'assignee me', holds: sql<SqlBool>`claims.assignee_id = ${accountId}` }
  }
  if (assignee === 'none') return { label: 'unassigned', holds: sql<SqlBool>`claims.assignee_id IS NULL` }
  const id = /^\d{1,9}$/.test(assignee) ? Number(assignee) : undefined
  const account =
    id === undefined
      ? undefined
      : await db.selectFrom('staff_accounts').select('id').where('id', '=', id).executeTakeFirst()
  if (!account) {
    throw badRequest(`unknown assignee "${assignee}": use me, none or the id of a staff account`)
  }
  return { label: `assignee ${id}`, holds: sql<SqlBool>`claims.assignee_id = ${id}` }
}

/** ?signedFrom= and ?signedTo=: from the start of the first day to the end of the last, in the firm's zone. */
function signedFilters(query: Request['query']): ClaimFilter[] {
  const from = dateParam(query, 'signedFrom')
  const to = dateParam(query, 'signedTo')
  if (from !== undefined && to !== undefined && from > to) {
    throw badRequest(`"signedFrom" (${from}) is after "signedTo" (${to}): swap them`)
  }
  const filters: ClaimFilter[] = []
  if (from !== undefined) {
    const start = new Date(firmDayStart(from)).toISOString()
    filters.push({ label: `signed from ${from}`, holds: sql<SqlBool>`claims.created_at >= ${start}` })
  }
  if (to !== undefined) {
    const next = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)
    const end = new Date(firmDayStart(next)).toISOString()
    filters.push({ label: `signed to ${to}`, holds: sql<SqlBool>`claims.created_at < ${end}` })
  }
  return filters
}

function dateParam(query: Request['query'], name: string): string | undefined {
  const value = textParam(query, name)
  if (value === undefined) return undefined
  const parts = DATE.exec(value)
  const [year, month, day] = (parts ?? []).slice(1).map(Number) as [number, number, number]
  const date = parts ? new Date(Date.UTC(year, month - 1, day)) : undefined
  if (
    !date ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    throw badRequest(`"${name}" must be a date written YYYY-MM-DD, e.g. 2026-11-28 (got "${value}")`)
  }
  return value
}

/** One text parameter; undefined when absent or empty. */
function textParam(query: Request['query'], name: string): string | undefined {
  const value = query[name]
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') throw badRequest(`"${name}" must be given once`)
  return value
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
