import type { Kysely, Selectable } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  MAX_FILING_BATCH,
  MAX_NOTICE_BATCH,
  NOTICE_METHOD_LABELS,
  NOTICE_METHODS,
  type Batch,
  type BatchCandidates,
  type BatchClaim,
  type BatchKind,
  type NoticeMethod,
  type NoticeSent,
} from '../../src/api/filing-batches.ts'
import type { ProviderProfile } from '../../src/filing-config.ts'
import { FIRM_SETTINGS } from '../../src/firm-settings.ts'
import type { ClaimFiling } from '../../src/api/review.ts'
import type { ReviewConfig, Reviews } from '../../src/review-config.ts'
import type { FraudConfig } from '../../src/fraud-config.ts'
import type { Database, FilingBatchesTable } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { chunks } from '../db/id-chunks.ts'
import { readBatchClaims, type BatchClaimRow } from './batch-claims.ts'
import { countFraudHeld, fraudHoldProblem, isClearOfFraudHold } from './fraud-hold.ts'
import type { AppFiling } from './load-filing-config.ts'
import { feeEstimate } from './fee-estimate.ts'
import { missingForFiling } from './provider-spreadsheet.ts'
import { assertMoveAllowed, recordMove } from '../lifecycle/move-claim.ts'
import { DAY_MS } from '../../src/durations.ts'

/** Who builds a batch, marks it sent or imports its case numbers: a staff account with the app's decide right. */
export interface BatchActor {
  clientAddress: string
  linkOrigin: string
  accountId: number
  actor: string
}

/** What a notice needs of a claim: someone to send it for, and where they live. */
const NOTICE_FIELDS: ProviderProfile['required'] = ['firstName', 'lastName', 'street', 'city', 'state', 'zip']
/** How many candidates of each kind a page lists. */
const LISTED = 200

/** The first day a demand may be filed after a notice sent on `sentOn` (both YYYY-MM-DD). */
export function mayFileFrom(sentOn: string, waitingPeriodDays: number): string {
  return new Date(Date.parse(`${sentOn}T00:00:00Z`) + waitingPeriodDays * DAY_MS).toISOString().slice(0, 10)
}

const FIRM_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: FIRM_SETTINGS.timeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})

/** The day it is at `now` in the firm's time zone (YYYY-MM-DD): the day a notice goes out and a waiting period ends. */
export function filingDay(now: number): string {
  return FIRM_DAY.format(now)
}

/** What the filing page says of a claim whose main form's address its claimant has not confirmed. */
export const ADDRESS_NOT_CONFIRMED = 'address not confirmed'

/** What a batch's checks need: the kind, the app's filing settings, today, the readyToFile status, the hold threshold. */
interface BatchChecks {
  kind: BatchKind
  filing: AppFiling
  today: string
  ready: string
  hold: number
}

/**
 * Why a claim cannot go into a batch of `kind` now ([] when it can); `ready`: the review's readyToFile
 * status; `hold`: the app's fraud hold threshold.
 */
function problemsOf(
  claim: BatchClaimRow,
  { kind, filing, today, ready, hold }: BatchChecks,
): { refusal: 'lacking' | 'taken' | 'waiting' | 'status' | 'held' | undefined; problems: string[] } {
  const { settings, profile } = filing
  if (claim.disowned) {
    return {
      refusal: 'status',
      problems: [`claim ${claim.claimId}: the owner of its e-mail said they did not file it`],
    }
  }
  if (claim.status !== ready) {
    return { refusal: 'status', problems: [`claim ${claim.claimId}: is ${claim.status}, not ${ready}`] }
  }
  if (kind === 'notice' && claim.noticeBatchId !== null) {
    return {
      refusal: 'taken',
      problems: [`claim ${claim.claimId}: already in notice batch ${claim.noticeBatchId}`],
    }
  }
  if (kind === 'filing' && claim.filingBatchId !== null) {
    return {
      refusal: 'taken',
      problems: [`claim ${claim.claimId}: already in filing batch ${claim.filingBatchId}, which is open`],
    }
  }
  const held = fraudHoldProblem(claim, hold)
  if (held) return { refusal: 'held', problems: [held] }
  if (kind === 'filing') {
    if (claim.noticeSentOn === null) {
      return {
        refusal: 'waiting',
        problems: [`claim ${claim.claimId}: no notice of dispute has been sent for it yet`],
      }
    }
    const from = mayFileFrom(claim.noticeSentOn, settings.waitingPeriodDays)
    if (from > today) {
      return { refusal: 'waiting', problems: [`claim ${claim.claimId}: may be filed from ${from}`] }
    }
  }
  if (claim.addressUnconfirmed) {
    // the cure request asks the claimant to confirm their main form's address from their e-mail
    return { refusal: 'lacking', problems: [`claim ${claim.claimId}: ${ADDRESS_NOT_CONFIRMED}`] }
  }
  // the row ID comes with the batch
  const lacking = missingForFiling(
    { ...claim, rowId: 'assigned with the batch' },
    settings,
    kind === 'notice' ? { ...profile, required: NOTICE_FIELDS } : profile,
  )
  return { refusal: lacking.length > 0 ? 'lacking' : undefined, problems: lacking }
}

/**
 * The claims that could go into the app's next batch of `kind`, with what keeps the others out: those
 * the fraud hold keeps out are counted, not read.
 */
export async function batchCandidates(
  db: Kysely<Database>,
  {
    app,
    kind,
    filing,
    review,
    fraud,
    now,
  }: {
    app: string
    kind: BatchKind
    filing: AppFiling
    review: ReviewConfig
    fraud: FraudConfig
    now: number
  },
): Promise<BatchCandidates> {
  const today = filingDay(now)
  const ready = review.roles.readyToFile
  const hold = fraud.thresholds.hold
  const claims = await readBatchClaims(db, app, { kind, ready, hold })
  const out: BatchCandidates = {
    kind,
    ready: 0,
    lacking: 0,
    waiting: 0,
    ...(await countFraudHeld(db, { app, ready, kind, hold })),
    nextMayFileFrom: null,
    noNotice: kind === 'filing' ? await countReady(db, { app, ready, inNoticeBatch: false }) : 0,
    approved: await countReady(db, { app, ready }),
    claims: [],
  }
  let listedReady = 0
  let listedLacking = 0
  for (const claim of claims) {
    const { refusal, problems } = problemsOf(claim, { kind, filing, today, ready, hold })
    if (refusal === 'held') continue // counted with the others the hold keeps out
    const from =
      claim.noticeSentOn === null ? null : mayFileFrom(claim.noticeSentOn, filing.settings.waitingPeriodDays)
    if (refusal === 'waiting') {
      if (claim.noticeSentOn === null) {
        out.noNotice++ // in a notice batch not sent yet
        continue
      }
      out.waiting++
      if (from !== null && (out.nextMayFileFrom === null || from < out.nextMayFileFrom)) {
        out.nextMayFileFrom = from
      }
      continue
    }
    const listed = refusal === 'lacking' ? listedLacking++ : listedReady++
    if (refusal === 'lacking') out.lacking++
    else out.ready++
    if (listed < LISTED) {
      out.claims.push({
        claimId: claim.claimId,
        name: `${claim.firstName} ${claim.lastName}`.trim(),
        noticeSentOn: claim.noticeSentOn,
        mayFileFrom: from,
        missing: problems,
      })
    }
  }
  return out
}

/**
 * The app's claims ready to file (in the status `ready`) not disowned; with `inNoticeBatch: false`, only
 * those in no notice or filing batch.
 */
async function countReady(
  db: Kysely<Database>,
  { app, ready, inNoticeBatch }: { app: string; ready: string; inNoticeBatch?: false },
): Promise<number> {
  const row = await db
    .selectFrom('claims')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('app', '=', app)
    .where('review_status', '=', ready)
    .where('disowned_at', 'is', null)
    .$if(inNoticeBatch === false, (query) =>
      query.where('notice_batch_id', 'is', null).where('filing_batch_id', 'is', null),
    )
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/**
 * Starts a batch of `kind` for the app: checks each claim (ready to file: in the review's readyToFile
 * status; not in a batch of the kind; clear of the fraud hold; for a filing, its notice's waiting period
 * over; every field the notice or the provider needs), then, in one
 * transaction, writes the batch (status building), its claims with their row IDs, each claim's batch
 * id (only where it has none: a claim put in another batch meanwhile refuses the whole batch) and the
 * audit entry. The batch builder (batch-builder.ts) makes its ZIP. Refuses with 422 naming each claim
 * that lacks something, 409 when one is in a batch already or when the app's review config has no
 * move from the readyToFile status to the filed one for the server (a built batch moves its claims so),
 * and changes nothing then.
 */
export async function startBatch(
  db: Kysely<Database>,
  {
    app,
    kind,
    claimIds,
    filing,
    review,
    fraud,
    evidenceKey,
    by,
    now,
  }: {
    app: string
    kind: BatchKind
    claimIds: number[] | undefined
    filing: AppFiling
    review: ReviewConfig
    fraud: FraudConfig
    evidenceKey: Buffer
    by: BatchActor
    now: number
  },
): Promise<Batch> {
  const ready = review.roles.readyToFile
  // before anything is written: the builder's move of each claim would be refused at the end
  if (kind === 'filing') assertMoveAllowed(review, { from: ready, to: review.roles.filed, mover: 'system' })
  const { settings, profile } = filing
  if (!settings.respondent) {
    throw new AppError('CONFLICT', {
      status: 409,
      message: `set the respondent's legal name and notice address in forms/${app}.json's "filing" first`,
    })
  }
  const limit = kind === 'notice' ? MAX_NOTICE_BATCH : MAX_FILING_BATCH
  const hold = fraud.thresholds.hold
  const checks: BatchChecks = { kind, filing, today: filingDay(now), ready, hold }
  let claims: BatchClaimRow[]
  if (claimIds === undefined) {
    claims = (await readBatchClaims(db, app, { kind, ready, hold }))
      .filter((claim) => problemsOf(claim, checks).refusal === undefined)
      .slice(0, limit)
    if (claims.length === 0) {
      throw new AppError('UNPROCESSABLE', {
        status: 422,
        message: `no ${ready} claim can go into a ${kind} batch now`,
      })
    }
  } else {
    if (claimIds.length > limit) {
      throw badRequest(`a ${kind} batch takes at most ${limit.toLocaleString('en-US')} claims`)
    }
    claims = await readBatchClaims(db, app, { ids: claimIds })
    const found = new Set(claims.map((claim) => claim.claimId))
    const unknown = claimIds.filter((id) => !found.has(id))
    if (unknown.length > 0) {
      throw new AppError('NOT_FOUND', {
        status: 404,
        message: `no claim of this app with the id ${unknown.slice(0, 20).join(', ')}`,
      })
    }
    const checked = claims.map((claim) => problemsOf(claim, checks))
    const taken = checked.filter((check) => check.refusal === 'taken' || check.refusal === 'status')
    if (taken.length > 0) {
      throw new AppError('CONFLICT', {
        status: 409,
        message: taken.flatMap((check) => check.problems).join('\n'),
      })
    }
    const refused = claims.filter((_, index) => checked[index]!.refusal !== undefined)
    if (refused.length > 0) {
      const problems = refused.flatMap((claim) => problemsOf(claim, checks).problems)
      throw new AppError('UNPROCESSABLE', {
        status: 422,
        message: `${refused.length} of these claims cannot go into the batch:\n${problems.join('\n')}`,
        details: {
          problems,
          claimIds: refused
            .filter((claim) => problemsOf(claim, checks).refusal === 'lacking')
            .map((claim) => claim.claimId),
        },
      })
    }
  }
  const column = kind === 'notice' ? 'notice_batch_id' : 'filing_batch_id'
  const row = await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const batch = await trx
        .insertInto('filing_batches')
        .values({
          app,
          kind,
          status: 'building',
          problem: null,
          provider: kind === 'filing' ? settings.provider : null,
          claim_count: claims.length,
          created_at: now,
          account_id: by.accountId,
          actor: by.actor,
          client_address: by.clientAddress,
          link_origin: by.linkOrigin,
          lease_owner: null,
          lease_until: null,
          file_key: null,
          bytes: null,
          sha256: null,
          batch_hash: null,
          sent_on: null,
          sent_method: null,
          sent_tracking: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      const id = Number(batch.id)
      const values = claims.map((claim, index) => ({
        batch_id: id,
        claim_id: claim.claimId,
        row_id: kind === 'filing' ? rowIdOf(id, index) : null,
        case_number: null,
      }))
      for (const part of chunks(values)) await trx.insertInto('filing_batch_claims').values(part).execute()
      for (const part of chunks(claims.map((claim) => claim.claimId))) {
        const taken = await trx
          .updateTable('claims')
          .set({ [column]: id })
          .where('id', 'in', part)
          .where(column, 'is', null)
          .where('review_status', '=', ready)
          // scored again meanwhile (a ring grew, the company's list named it): held as it is now
          .where(isClearOfFraudHold(hold))
          .executeTakeFirst()
        if (Number(taken.numUpdatedRows) !== part.length) {
          throw new AppError('CONFLICT', {
            status: 409,
            message:
              'a claim was moved, held for fraud review or put into another batch meanwhile; build the batch again',
          })
        }
      }
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.accountId,
        actor: by.actor,
        app,
        action: 'batch_started',
        detail: `${kind} batch ${id}: ${claims.length} claims${kind === 'filing' ? ` (${profile.name})` : ''}`,
      })
      return batch
    }),
  )
  return batchView(row, filing, 0)
}

/** The claimant's row ID in a filing batch: the provider's unique ID and the demand's file name. */
export function rowIdOf(batchId: number, index: number): string {
  return `B${batchId}-${String(index + 1).padStart(5, '0')}`
}

/** The app's batches, newest first. */
export async function listBatches(
  db: Kysely<Database>,
  { app, filing }: { app: string; filing: AppFiling },
): Promise<Batch[]> {
  const rows = await db
    .selectFrom('filing_batches')
    .selectAll()
    .where('app', '=', app)
    .orderBy('id', 'desc')
    .limit(200)
    .execute()
  // a filing batch's case numbers, a notice batch's certified mail numbers
  const ids = rows.filter((row) => row.kind === 'filing' || row.sent_on !== null).map((row) => Number(row.id))
  const numbered = new Map<number, number>()
  if (ids.length > 0) {
    const counts = await db
      .selectFrom('filing_batch_claims')
      .select(['batch_id', (eb) => eb.fn.countAll<number>().as('count')])
      .where('batch_id', 'in', ids)
      .where((eb) => eb.or([eb('case_number', 'is not', null), eb('tracking_number', 'is not', null)]))
      .groupBy('batch_id')
      .execute()
    for (const { batch_id, count } of counts) numbered.set(Number(batch_id), Number(count))
  }
  return rows.map((row) => batchView(row, filing, numbered.get(Number(row.id)) ?? 0))
}

export async function findBatch(
  db: Kysely<Database>,
  app: string,
  id: string,
): Promise<Selectable<FilingBatchesTable>> {
  const batch = /^\d{1,15}$/.test(id)
    ? await db
        .selectFrom('filing_batches')
        .selectAll()
        .where('id', '=', Number(id))
        .where('app', '=', app)
        .executeTakeFirst()
    : undefined
  if (!batch) throw new AppError('NOT_FOUND', { status: 404, message: `no batch "${id}" of this app` })
  return batch
}

/** `numbered`: how many of its claims have a case number (filing) or their own certified mail number (notice). */
export function batchView(row: Selectable<FilingBatchesTable>, filing: AppFiling, numbered: number): Batch {
  const method = row.sent_method as NoticeMethod | null
  return {
    id: Number(row.id),
    kind: row.kind,
    status: row.status,
    problem: row.problem,
    claimCount: Number(row.claim_count),
    createdAt: Number(row.created_at),
    createdBy: row.actor,
    provider: row.kind === 'filing' ? filing.profile.name : null,
    bytes: row.bytes === null ? null : Number(row.bytes),
    sha256: row.sha256,
    batchHash: row.batch_hash,
    sent:
      row.sent_on === null || method === null
        ? null
        : {
            on: row.sent_on,
            method,
            tracking: row.sent_tracking ?? '',
            mayFileFrom: mayFileFrom(row.sent_on, filing.settings.waitingPeriodDays),
          },
    caseNumbers: row.kind === 'filing' ? numbered : 0,
    trackingNumbers: row.kind === 'notice' ? numbered : 0,
    fees: row.kind === 'filing' ? feeEstimate(filing.profile.fees, Number(row.claim_count)) : null,
  }
}

/** A batch's claims in row order, 500 from the claim after `after`. */
export async function batchClaims(
  db: Kysely<Database>,
  batchId: number,
  after: number,
): Promise<BatchClaim[]> {
  const rows = await db
    .selectFrom('filing_batch_claims as member')
    .innerJoin('claims', 'claims.id', 'member.claim_id')
    .select([
      'member.claim_id',
      'member.row_id',
      'member.case_number',
      'claims.first_name',
      'claims.last_name',
    ])
    .where('member.batch_id', '=', batchId)
    .where('member.claim_id', '>', after)
    .orderBy('member.claim_id')
    .limit(500)
    .execute()
  return rows.map((row) => ({
    claimId: Number(row.claim_id),
    rowId: row.row_id,
    name: `${row.first_name} ${row.last_name}`.trim(),
    caseNumber: row.case_number,
  }))
}

/** A claim's batch ids and case number, as the claims row keeps them. */
export interface ClaimBatchColumns {
  id: number
  notice_batch_id: number | null
  filing_batch_id: number | null
  case_number: string | null
}

/**
 * A claim's notice batch (its sending) and its filing batch (provider, hash, the claim's row ID), each
 * undefined while the claim is in none: what the claim's page and its evidence bundle say of its filing.
 */
export async function batchesOfClaim(db: Kysely<Database>, claim: ClaimBatchColumns) {
  const notice =
    claim.notice_batch_id === null
      ? undefined
      : await db
          .selectFrom('filing_batches as batch')
          .leftJoin('filing_batch_claims as member', (join) =>
            join.onRef('member.batch_id', '=', 'batch.id').on('member.claim_id', '=', claim.id),
          )
          .select([
            'batch.id',
            'batch.sent_on',
            'batch.sent_method',
            'batch.sent_tracking',
            'member.tracking_number',
          ])
          .where('batch.id', '=', claim.notice_batch_id)
          .executeTakeFirst()
  const filing =
    claim.filing_batch_id === null
      ? undefined
      : await db
          .selectFrom('filing_batch_claims as member')
          .innerJoin('filing_batches as batch', 'batch.id', 'member.batch_id')
          .select(['batch.id', 'batch.provider', 'batch.batch_hash', 'member.row_id'])
          .where('member.batch_id', '=', claim.filing_batch_id)
          .where('member.claim_id', '=', claim.id)
          .executeTakeFirst()
  return { notice, filing }
}

/** Where one claim stands with its notice and filing (the claim's review page shows it); null before any batch. */
export async function claimFiling(
  db: Kysely<Database>,
  claim: ClaimBatchColumns,
  waitingPeriodDays: number,
): Promise<ClaimFiling | null> {
  if (claim.notice_batch_id === null && claim.filing_batch_id === null) return null
  const { notice, filing } = await batchesOfClaim(db, claim)
  const sentOn = notice?.sent_on ?? null
  return {
    noticeBatchId: claim.notice_batch_id === null ? null : Number(claim.notice_batch_id),
    noticeSentOn: sentOn,
    mayFileFrom: sentOn === null ? null : mayFileFrom(sentOn, waitingPeriodDays),
    noticeTracking: notice?.tracking_number || notice?.sent_tracking || null,
    filingBatchId: claim.filing_batch_id === null ? null : Number(claim.filing_batch_id),
    rowId: filing?.row_id ?? null,
    caseNumber: claim.case_number,
  }
}

/** Checks what "Mark sent" sends: each fault a 400 naming it. */
export function parseNoticeSent(
  body: unknown,
  { builtOn, today }: { builtOn: string; today: string },
): Required<NoticeSent> {
  const { sentOn, method, tracking } = (body ?? {}) as Record<string, unknown>
  if (typeof sentOn !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(sentOn) || Number.isNaN(Date.parse(sentOn))) {
    throw badRequest('"sentOn" must be the day the notices went out, as YYYY-MM-DD')
  }
  if (sentOn < builtOn)
    throw badRequest(`the notices cannot have gone out before the batch was built (${builtOn})`)
  if (sentOn > today) throw badRequest(`the notices cannot have gone out after today (${today})`)
  if (typeof method !== 'string' || !(NOTICE_METHODS as readonly string[]).includes(method)) {
    throw badRequest(`"method" must be one of ${NOTICE_METHODS.join(', ')}`)
  }
  const reference = typeof tracking === 'string' ? tracking.trim() : ''
  if (tracking !== undefined && typeof tracking !== 'string') throw badRequest('"tracking" must be text')
  if (reference.length > 100) throw badRequest('the tracking number or reference is over 100 characters')
  return { sentOn, method: method as NoticeMethod, tracking: reference }
}

/**
 * Marks a ready notice batch sent: its day, how and the number, with an audit entry (sealed into the
 * ledger) in the same transaction. Each claim of it may be filed once the waiting period from that day
 * has passed. A batch is marked sent once: 409 after.
 */
export async function markNoticeSent(
  db: Kysely<Database>,
  {
    batch,
    sent,
    evidenceKey,
    by,
  }: {
    batch: Selectable<FilingBatchesTable>
    sent: Required<NoticeSent>
    evidenceKey: Buffer
    by: BatchActor
  },
): Promise<void> {
  if (batch.kind !== 'notice') throw conflict(`batch ${batch.id} is a filing batch: only notices are sent`)
  if (batch.status !== 'ready')
    throw conflict(`notice batch ${batch.id} is ${batch.status}: mark it sent once it is ready`)
  await retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('filing_batches')
        .set({ sent_on: sent.sentOn, sent_method: sent.method, sent_tracking: sent.tracking })
        .where('id', '=', batch.id)
        .where('sent_on', 'is', null)
        .executeTakeFirst()
      if (Number(updated.numUpdatedRows) !== 1)
        throw conflict(`notice batch ${batch.id} was marked sent already`)
      await writeAuditEntry(trx, evidenceKey, {
        clientAddress: by.clientAddress,
        accountId: by.accountId,
        actor: by.actor,
        app: batch.app,
        action: 'notice_batch_sent',
        detail: `notice batch ${batch.id}: sent on ${sent.sentOn} by ${NOTICE_METHOD_LABELS[sent.method].toLowerCase()}${sent.tracking ? ` (${sent.tracking})` : ''}`,
      })
    }),
  )
}

/**
 * Sends a cure request to each claimant named whose claim is ready to file: the claim moves from the
 * review's readyToFile status to its cure status with a reason naming what the filing lacks, and the
 * review's deficiency notice goes (claim-cures.ts). A claim that is not ready to file any more is left
 * as it is. Refuses before any claim moves when the app's review config has no reviewer's move between
 * those statuses (409), or the account may not make it (403).
 */
export async function sendCureRequests(
  db: Kysely<Database>,
  {
    app,
    claimIds,
    filing,
    reviews,
    evidenceKey,
    by,
    mayDecide,
  }: {
    app: string
    claimIds: number[]
    filing: AppFiling
    reviews: Reviews
    evidenceKey: Buffer
    by: BatchActor
    /** The account's decide right on the app. */
    mayDecide: boolean
  },
): Promise<number> {
  const review = reviews(app)
  const { readyToFile: ready, cure } = review.roles
  assertMoveAllowed(review, { from: ready, to: cure, mover: 'staff', mayDecide })
  if (!review.reasons.details_missing) {
    throw conflict('the review config has no "details_missing" reason to send a cure request with')
  }
  const claims = await readBatchClaims(db, app, { ids: claimIds })
  let sent = 0
  for (const claim of claims) {
    if (claim.status !== ready) continue
    const lacking = missingForFiling({ ...claim, rowId: 'assigned with the batch' }, filing.settings, {
      ...filing.profile,
      required: [...new Set([...NOTICE_FIELDS, ...filing.profile.required])],
    })
    if (lacking.length === 0) continue
    await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const now = await trx
          .selectFrom('claims')
          .select(['review_status', 'review_version', 'filing_batch_id'])
          .where('id', '=', claim.claimId)
          .executeTakeFirstOrThrow()
        if (now.review_status !== ready || now.filing_batch_id !== null) return
        await recordMove(trx, {
          evidenceKey,
          review,
          claim: { id: claim.claimId, app, status: ready, version: Number(now.review_version) },
          to: cure,
          reason: 'details_missing',
          note: lacking.join('; '),
          by,
          mover: 'staff',
          mayDecide,
        })
        sent++
      }),
    )
  }
  return sent
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}

function conflict(message: string): AppError {
  return new AppError('CONFLICT', { status: 409, message })
}
