import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  BULK_ATTENTION,
  BULK_ATTENTION_NAMED,
  MAX_BULK_MOVE_IDS,
  type BulkAttention,
  type BulkMoveFilter,
  type BulkMovePreview,
} from '../../src/api/bulk-moves.ts'
import type { VisibleApps } from '../../src/api/staff.ts'
import { allowedMoves, type ReviewConfig } from '../../src/review-config.ts'
import type { FraudConfig } from '../../src/fraud-config.ts'
import type { Database } from '../db/database.ts'
import { isFlaggedIn } from '../dashboard/flagged-claims.ts'
import type { ClaimSearch } from '../dashboard/claim-list.ts'
import { parseListQuery } from '../platform/list-query.ts'
import { parseClaimFilters } from '../dashboard/parse-claim-filters.ts'
import { parseClaimMove, type ClaimMove } from '../lifecycle/move-claim.ts'

/** The claims a bulk move takes: the checked rows, or every claim the dashboard's filter shows. */
export type BulkSelection = { ids: number[] } | { filter: BulkMoveFilter }

/** A bulk move as the dashboard sends it, its shape checked. */
export interface BulkMove extends Omit<ClaimMove, 'version'> {
  selection: BulkSelection
}

/** The dashboard's query parameters a filter may hold (parse-claim-filters.ts, list-query.ts). */
const FILTER_KEYS = [
  'q',
  'flagged',
  'status',
  'reason',
  'assignee',
  'confirmed',
  'language',
  'signedFrom',
  'signedTo',
  'fraud',
  'fraudReason',
]

/**
 * Checks a bulk move's shape before anything is read: the move as a single move's (parseClaimMove's
 * messages), a status some reviewer's move leads to, and one selection. Each fault is a 400.
 */
export function parseBulkMove(body: unknown, review: ReviewConfig): BulkMove {
  const input = (body ?? {}) as Record<string, unknown>
  const { version: _version, ...move } = parseClaimMove(
    { to: input.to, reason: input.reason, reasonText: input.reasonText, note: input.note, version: 0 },
    review,
  )
  const targets = bulkTargets(review)
  if (!targets.includes(move.to)) {
    throw badRequest(`no claim can be moved to ${move.to} by a reviewer: use one of ${targets.join(', ')}`)
  }
  return { ...move, selection: parseSelection(input) }
}

/** The statuses a reviewer's move leads to, in the config's order: where a bulk move may go. */
export function bulkTargets(review: ReviewConfig): string[] {
  return Object.keys(review.statuses).filter((status) =>
    review.moves.some((move) => move.to === status && (move.by ?? 'staff') === 'staff'),
  )
}

function parseSelection({ ids, filter }: Record<string, unknown>): BulkSelection {
  if (ids !== undefined && filter !== undefined) {
    throw badRequest('choose the claims one way: "ids" (the checked rows) or "filter", not both')
  }
  if (ids !== undefined) {
    if (!Array.isArray(ids)) throw badRequest('"ids" must be a list of claim ids')
    if (ids.length > MAX_BULK_MOVE_IDS) {
      throw badRequest(
        `at most ${MAX_BULK_MOVE_IDS.toLocaleString('en-US')} claims can be moved by id (got ${ids.length.toLocaleString('en-US')}): move more with a filter`,
      )
    }
    const bad = ids.find((id) => !Number.isSafeInteger(id) || (id as number) < 1)
    if (bad !== undefined)
      throw badRequest(`"ids" must hold claim ids, whole numbers (got ${JSON.stringify(bad)})`)
    if (ids.length > 0) return { ids: [...new Set(ids as number[])] }
  }
  if (filter !== undefined) {
    if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
      throw badRequest('"filter" must be the dashboard\'s filters, e.g. { "status": "received" }')
    }
    for (const [key, value] of Object.entries(filter)) {
      if (!FILTER_KEYS.includes(key)) {
        throw badRequest(`unknown filter "${key}": use ${FILTER_KEYS.join(', ')}`)
      }
      if (typeof value !== 'string') throw badRequest(`the filter "${key}" must be text`)
    }
    return { filter: filter as BulkMoveFilter }
  }
  throw badRequest(
    'choose the claims to move: "ids" (the checked rows) or "filter" (the dashboard\'s filters)',
  )
}

/**
 * The selection's claims as a parenthesised subquery of ids, read as the dashboard's list reads them (a
 * filter's bad value is the list's 400). Every id given must be one of the app's claims: an unknown one
 * is a 400, another app's a 403.
 */
export async function selectedIds({
  db,
  review,
  fraud,
  claims,
  app,
  selection,
  accountId,
  visibleApps,
}: {
  db: Kysely<Database>
  review: ReviewConfig
  fraud: FraudConfig
  claims: ClaimSearch
  app: string
  selection: BulkSelection
  accountId: number
  visibleApps: VisibleApps
}): Promise<RawBuilder<{ id: number }>> {
  if ('filter' in selection) {
    const { term, flagged } = parseListQuery(selection.filter)
    const filters = await parseClaimFilters(selection.filter, { db, review, fraud, accountId })
    return claims.matchingIds({ app, term, flagged, filters, visibleApps })
  }
  const found = await db.selectFrom('claims').select(['id', 'app']).where('id', 'in', selection.ids).execute()
  const appOf = new Map(found.map((row) => [Number(row.id), row.app]))
  const missing = selection.ids.filter((id) => !appOf.has(id))
  if (missing.length > 0) {
    throw badRequest(`no claim ${listed(missing)}: send the ids of the list's claims`)
  }
  const others = selection.ids.filter((id) => appOf.get(id) !== app)
  if (others.length > 0) {
    throw new AppError('FORBIDDEN', {
      status: 403,
      message: `claim ${listed(others)} is not one of this app's claims: a bulk move takes one app's claims`,
    })
  }
  return sql<{ id: number }>`(SELECT claims.id FROM claims WHERE claims.id IN (${sql.join(selection.ids)}))`
}

/** How many of the selected claims would move to `to` now, by status, and how many cannot. */
export async function previewBulkMove(
  db: Kysely<Database>,
  {
    review,
    app,
    ids,
    to,
    visibleApps,
  }: {
    review: ReviewConfig
    app: string
    ids: RawBuilder<{ id: number }>
    to: string
    /** The reviewer's apps: a claim counts as flagged by a match they may see. */
    visibleApps: VisibleApps
  },
): Promise<BulkMovePreview> {
  const rows = await db
    .selectFrom('claims')
    .select(['review_status', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
    .where('claims.app', '=', app)
    .where(sql<SqlBool>`claims.id IN ${ids}`)
    .groupBy('review_status')
    .execute()
  const preview: BulkMovePreview = {
    count: 0,
    from: {},
    skipped: {},
    attention: { flagged: NONE, disowned: NONE, unconfirmed: NONE },
  }
  // in the config's order, so the sentence names the statuses as the dashboard lists them
  const order = Object.keys(review.statuses)
  rows.sort((a, b) => order.indexOf(a.review_status) - order.indexOf(b.review_status))
  for (const { review_status: status, count } of rows) {
    if (allowedMoves(review, status, 'staff').includes(to)) {
      preview.from[status] = Number(count)
      preview.count += Number(count)
    } else {
      preview.skipped[status] = Number(count)
    }
  }
  const moving = Object.keys(preview.from)
  if (moving.length > 0) {
    const kinds = await Promise.all(
      BULK_ATTENTION.map(async (kind) => {
        const of = db
          .selectFrom('claims')
          .where('claims.app', '=', app)
          .where(sql<SqlBool>`claims.id IN ${ids}`)
          .where('claims.review_status', 'in', moving)
          .where(ATTENTION[kind](visibleApps))
        const [counted, named] = await Promise.all([
          of.select((eb) => eb.fn.countAll<number | string | bigint>().as('count')).executeTakeFirstOrThrow(),
          of.select('claims.id').orderBy('claims.id').limit(BULK_ATTENTION_NAMED).execute(),
        ])
        return [kind, { count: Number(counted.count), ids: named.map((row) => Number(row.id)) }] as const
      }),
    )
    preview.attention = Object.fromEntries(kinds) as BulkMovePreview['attention']
  }
  return preview
}

const NONE = { count: 0, ids: [] }

/** Each kind of claim a bulk move's preview names, as a condition on claims. */
const ATTENTION: Record<BulkAttention, (apps: VisibleApps) => RawBuilder<SqlBool>> = {
  flagged: (apps) => isFlaggedIn(apps),
  disowned: () => sql<SqlBool>`claims.disowned_at IS NOT NULL`,
  // the claim names a main form whose address is not its own yet (intake-ties.ts)
  unconfirmed: () => sql<SqlBool>`claims.intake_id IS NOT NULL AND claims.intake_by_link = 0
    AND NOT EXISTS (SELECT 1 FROM form_submissions AS intake WHERE intake.id = claims.intake_id
      AND intake.confirmed_at IS NOT NULL AND intake.disowned_at IS NULL)`,
}

/** The first few ids, quoted: `"12", "13" and 4 more`. */
function listed(ids: number[]): string {
  const named = ids
    .slice(0, 3)
    .map((id) => `"${id}"`)
    .join(', ')
  return ids.length > 3 ? `${named} and ${ids.length - 3} more` : named
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
