/**
 * What the company's-list endpoints take and answer (server/filing/respondent-list.routes.ts), read by
 * the "Notices and filing" page: a respondent's list of claimants it says are not its customers, or
 * are duplicates, matched against the app's claims.
 * @example const imported: RespondentListImported = await fetchJson(respondentListPath('earnin', 'duplicate'))
 */

/** The lists a respondent sends; each matched claim is flagged with its list (respondent_flags.list). */
export const RESPONDENT_LISTS = ['not_customer', 'duplicate'] as const
export type RespondentList = (typeof RESPONDENT_LISTS)[number]

export const RESPONDENT_LIST_LABELS: Record<RespondentList, string> = {
  not_customer: 'Not a customer',
  duplicate: 'Duplicate',
}

/** How many unmatched lines an answer lists; the rest are counted. */
export const UNMATCHED_LISTED = 200

/**
 * POST /api/staff/apps/:slug/batches/respondent-list?list=not_customer|duplicate takes the company's
 * CSV (text/csv): a header naming an e-mail, a phone or a claim reference column ("E-mail", "Phone",
 * "Claim ID" or "Row ID"), then a claimant a line. A file with a faulty line is refused (400) naming
 * each by its number, and nothing is kept. Admins only.
 */
export interface RespondentListImported {
  list: RespondentList
  /** The file's lines after its header. */
  lines: number
  /** The app's claims the lines name, each flagged with the list and scored again. */
  matched: number
  claimIds: number[]
  /** The lines that name no claim of the app (the first UNMATCHED_LISTED), as written, and their count. */
  unmatched: { line: number; value: string }[]
  unmatchedCount: number
}

/**
 * POST /api/staff/apps/:slug/batches/respondent-list/account-proof {claimIds}: each claim named, all on
 * the company's list, is asked to prove its account (a bulk move to the review's cure status with the
 * reason account_unverified). Answers 202 with the bulk move (BulkMoveStarted).
 */
export interface AccountProofRequest {
  claimIds: number[]
}

/** The import's path for a list. */
export function respondentListPath(slug: string, list: RespondentList): string {
  return `/api/staff/apps/${encodeURIComponent(slug)}/batches/respondent-list?list=${list}`
}
