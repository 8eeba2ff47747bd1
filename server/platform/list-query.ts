import type { Request } from 'express'
import { AppError } from '../../src/app-error.ts'
import { MAX_SEARCH_LENGTH, parseSearchTerm, type SearchTerm } from './search-term.ts'

export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 200

/**
 * A list's order by date (and id): newest first, or oldest first, as a queue is worked; a claim list
 * also takes `score`, the lowest fraud score first (server/dashboard/score-order.ts).
 */
export type ListOrder = 'newest' | 'oldest' | 'score'

/** ?page=&pageSize= of a staff list: the page from 1, and its size, at most MAX_PAGE_SIZE. */
export interface ListPage {
  page: number
  pageSize: number
}

export interface ListQuery extends ListPage {
  term: SearchTerm | undefined
  /** ?order=oldest: oldest first; ?order=score: the lowest fraud score first; newest first otherwise. */
  order: ListOrder
  /** ?flagged=1: only claims flagged for a duplicate screenshot. */
  flagged: boolean
}

/** ?q=&page=&pageSize= of a staff list; a pageSize above the maximum is cut to it. */
export function parseListQuery(query: Request['query']): ListQuery {
  const q = query.q ?? ''
  if (typeof q !== 'string' || q.length > MAX_SEARCH_LENGTH) {
    throw badRequest(`"q" must be one search term of at most ${MAX_SEARCH_LENGTH} characters`)
  }
  // a NUL or another control character matches nothing a claimant could type, and PostgreSQL refuses a NUL
  if (/\p{Cc}/u.test(q))
    throw badRequest('"q" must not hold control characters (such as NUL or a line break)')
  return {
    term: parseSearchTerm(q),
    order: parseOrder(query.order),
    flagged: parseFlag(query.flagged, 'flagged'),
    ...parseListPage(query),
  }
}

/** ?page=&pageSize= of a staff list with no search; a pageSize above the maximum is cut to it. */
export function parseListPage(query: Request['query']): ListPage {
  return {
    page: positiveInteger(query.page, 'page', 1),
    pageSize: Math.min(positiveInteger(query.pageSize, 'pageSize', DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE),
  }
}

function parseOrder(value: unknown): ListOrder {
  if (value === undefined || value === '' || value === 'newest') return 'newest'
  if (value === 'oldest' || value === 'score') return value
  throw badRequest('"order" must be newest, oldest or score')
}

function parseFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === '' || value === '0') return false
  if (value === '1') return true
  throw badRequest(`"${name}" must be 1 (only those) or 0 (all)`)
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN
  if (!(number >= 1)) throw badRequest(`"${name}" must be a whole number of 1 or more`)
  return number
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
