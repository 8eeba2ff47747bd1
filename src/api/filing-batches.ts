/**
 * What the notice and filing batch endpoints take and answer (server/filing/filing-batches.routes.ts),
 * read by the app's "Notices and filing" page.
 * @example const batches: BatchList = await fetchJson('/api/staff/apps/earnin/batches')
 */

/** A notice batch holds notices of dispute to the respondent; a filing batch is a mass filing with the provider. */
export type BatchKind = 'notice' | 'filing'

/** Queued and building until its ZIP is written; failed releases its claims. */
export type BatchStatus = 'building' | 'ready' | 'failed'

/** The most claims one notice batch takes: its combined PDF is printed and mailed in one go. */
export const MAX_NOTICE_BATCH = 2_000
/** The most claims one filing batch takes. */
export const MAX_FILING_BATCH = 10_000

/** How a notice batch was sent to the respondent. */
export const NOTICE_METHODS = ['mail', 'certified_mail', 'email'] as const
export type NoticeMethod = (typeof NOTICE_METHODS)[number]
export const NOTICE_METHOD_LABELS: Record<NoticeMethod, string> = {
  mail: 'Mail',
  certified_mail: 'Certified mail',
  email: 'E-mail',
}

/** A claim that could go into the next batch, or could once it has what it lacks. */
export interface BatchCandidate {
  claimId: number
  name: string
  /** The notice's sending day (YYYY-MM-DD) and the first day a demand may be filed; null before a notice. */
  noticeSentOn: string | null
  mayFileFrom: string | null
  /** What keeps it out: "claim 1234: no street address"; empty when it can go in. */
  missing: string[]
}

/** GET /api/staff/apps/:slug/batches/candidates?kind=notice|filing */
export interface BatchCandidates {
  kind: BatchKind
  /** Approved claims that can go in now, and those that lack a field the notice or the provider needs. */
  ready: number
  lacking: number
  /** Up to 200 of each, oldest claim first. */
  claims: BatchCandidate[]
  /** Approved claims with a notice whose waiting period has not passed yet (filing only). */
  waiting: number
  /** The first day one of those may be filed (YYYY-MM-DD), null when none waits. */
  nextMayFileFrom: string | null
  /**
   * Approved claims whose notice of dispute has not gone out (filing only): in no notice batch yet, or in
   * one not marked sent. With `waiting` and `approved` they say why none can be filed, and when.
   */
  noNotice: number
  /** The app's approved claims the owner of the e-mail has not disowned, in a batch or not. */
  approved: number
  /**
   * Approved claims the fraud hold keeps out of this kind's next batch: scored at or below the app's
   * hold threshold and not cleared by a decider ("Not fraud"), and not scored yet. The dashboard's
   * `?fraud=hold` filter lists them.
   */
  held: number
  unscored: number
}

/**
 * POST /api/staff/apps/:slug/batches takes this and answers 202 with the batch (status "building").
 * Without `claimIds` the batch takes every claim that can go in now, up to the kind's limit, oldest first.
 * It is refused (422) with `problems` when any named claim lacks a field, and 409 when one is in another
 * batch of the kind already.
 */
export interface BatchRequest {
  kind: BatchKind
  claimIds?: number[]
}

/**
 * A refused batch's 422 body is the usual ErrorBody (src/app-error.ts) with `error.details`: each
 * problem names its claim ("claim 1234: no street address"), and `claimIds` the claims a cure request
 * can fix ("Send these claimants a cure request"). 409 and 400 bodies name their claims in the message,
 * one a line.
 */
export type { ErrorBody as BatchRefusal } from '../app-error.ts'

/**
 * POST /api/staff/apps/:slug/batches/cure-requests {claimIds}: each approved claim named is made
 * deficient with a notice asking for what it lacks (the review's deficiency notice). Answers how many.
 */
export interface CureRequestsSent {
  sent: number
}

/** The provider's fee estimate for a filing batch's count, from its profile (a config value, not a quote). */
export interface FeeEstimate {
  claimant: number
  respondent: number
  note: string
}

export interface Batch {
  id: number
  kind: BatchKind
  status: BatchStatus
  /** Why it failed, for staff. */
  problem: string | null
  claimCount: number
  /** epoch ms */
  createdAt: number
  createdBy: string
  /** The provider's name (filing batches). */
  provider: string | null
  /** The ZIP's size and SHA-256 once ready. */
  bytes: number | null
  sha256: string | null
  /** The hash counsel's statement names (filing batches): the SHA-256 of the manifest's file and claim lists. */
  batchHash: string | null
  /** Notice batches once marked sent. */
  sent: { on: string; method: NoticeMethod; tracking: string; mayFileFrom: string } | null
  /** Filing batches: how many of its claims have a case number. */
  caseNumbers: number
  /** Notice batches: how many of its claims have their own certified mail number (imported once sent). */
  trackingNumbers: number
  fees: FeeEstimate | null
}

/** GET /api/staff/apps/:slug/batches: newest first. */
export interface BatchList {
  batches: Batch[]
}

/** One claim of a batch: GET /api/staff/apps/:slug/batches/:id/claims (up to 500 from `after`). */
export interface BatchClaim {
  claimId: number
  /** Filing batches: the claimant's row ID, the demand's file name without .pdf. */
  rowId: string | null
  name: string
  caseNumber: string | null
}

/** POST /api/staff/apps/:slug/batches/:id/sent: a notice batch went to the respondent. */
export interface NoticeSent {
  /** YYYY-MM-DD, not before the batch was built nor after today. */
  sentOn: string
  method: NoticeMethod
  /**
   * One number for the whole batch: a mail or certified mail number, or an e-mail's reference. Certified
   * mail sent a piece a claimant leaves it out and imports each claimant's number once sent.
   */
  tracking?: string
}

/**
 * POST /api/staff/apps/:slug/batches/:id/tracking-numbers takes the post office's CSV (text/csv) for a
 * notice batch marked sent: a header naming a claim ID column and a tracking number column, then one
 * row a claimant. Refused (400) like the case-number import, naming each faulty line; nothing is kept
 * unless every line is right.
 */
export interface TrackingNumbersImported {
  imported: number
}

/**
 * POST /api/staff/apps/:slug/batches/:id/case-numbers takes the provider's CSV (text/csv): a header
 * row naming a row ID column and a case number column, then one row a claimant. Refused (400) with the
 * first 100 faulty lines in `details.problems` and how many there are in `details.problemCount`; nothing
 * is kept unless every line is right.
 */
export interface CaseNumbersImported {
  imported: number
}

/** The ZIPs: GET …/batches/:id/download (the batch) and …/batches/:id/evidence (every row's evidence bundle). */
export const BATCH_ZIP_TYPE = 'application/zip'
