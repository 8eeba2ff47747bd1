import type { ClaimFilterValues } from './claim-filters.tsx'
import type { ListOrder } from '../shared/staff-api.ts'

/** What the dashboard's address holds, so that a reload, Back or a shared link opens the same list. */
export interface DashboardView {
  term: string
  filters: ClaimFilterValues
  flagged: boolean
  order: ListOrder
  page: number
}

const FILTER_NAMES = [
  'status',
  'reason',
  'assignee',
  'confirmed',
  'language',
  'signedFrom',
  'signedTo',
  'batch',
  'case',
  'fraud',
  'fraudReason',
] as const satisfies readonly (keyof ClaimFilterValues)[]

/**
 * The view an address names: `?q=…&status=…&fraud=hold&flagged=1&order=score&page=3`. A link from a filing
 * batch (`?batch=3`) or another page (`?case=…`) is one of these; a value the server would refuse
 * (a batch that is no number, a page below 1) is left out, so the address never breaks the list.
 */
export function readDashboardView(search: string): DashboardView {
  const params = new URLSearchParams(search)
  const filters: ClaimFilterValues = {}
  for (const name of FILTER_NAMES) {
    const value = params.get(name)?.trim() ?? ''
    if (value === '' || value.length > 64) continue
    if (name === 'batch' && !/^\d{1,15}$/.test(value)) continue
    ;(filters as Record<string, string>)[name] = value
  }
  const page = Number(params.get('page') ?? '1')
  return {
    term: params.get('q') ?? '',
    filters,
    flagged: params.get('flagged') === '1',
    order: orderOf(params.get('order')),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  }
}

function orderOf(value: string | null): ListOrder {
  return value === 'oldest' || value === 'score' ? value : 'newest'
}

/** The view's query string ('' for the plain list), each value left out at its default. */
export function dashboardSearch(view: DashboardView): string {
  const params = new URLSearchParams()
  if (view.term.trim() !== '') params.set('q', view.term.trim())
  for (const name of FILTER_NAMES) {
    const value = view.filters[name]?.trim()
    if (value) params.set(name, value)
  }
  if (view.flagged) params.set('flagged', '1')
  if (view.order !== 'newest') params.set('order', view.order)
  if (view.page > 1) params.set('page', String(view.page))
  const search = params.toString()
  return search === '' ? '' : `?${search}`
}
