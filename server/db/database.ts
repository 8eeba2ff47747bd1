import type { ColumnType, Generated, Kysely } from 'kysely'
import type { ClaimSigningMethod, SigningMethod } from '../../src/signing.ts'

/** One Step 2 claim, for any app; the app's slug tells them apart. */
export interface ClaimsTable {
  id: Generated<number>
  app: string
  created_at: ColumnType<Date | string, string, never>
  first_name: string
  last_name: string
  email: string
  phone_number: string
  cash_advance_count: number
  membership_months: number
  screenshot_key: string
  screenshot_type: string
  /** The screenshot's SHA-256 (hex) as received; in the claim's seal. */
  screenshot_sha256: Generated<string>
  /** 1 keeps the claim past the retention period (purge-expired skips it). */
  legal_hold: Generated<number>
  /** The claimant's language ('en', 'es'). */
  locale: Generated<string>
  /** When the claimant opened the e-mail copy's link and confirmed (null until then), from where, how. */
  confirmed_at: ColumnType<Date | string | null, never, string>
  confirmed_ip: ColumnType<string | null, never, string>
  confirmed_user_agent: ColumnType<string | null, never, string>
  /** The review's status (forms/base/review.json), and the number of moves made to it. */
  review_status: Generated<string>
  review_version: Generated<number>
  /** The last move's reason and time (epoch ms), for the dashboards' filters and export. */
  review_reason: ColumnType<string | null, never, string | null>
  review_moved_at: ColumnType<number | null, never, number>
  /** The staff account reviewing the claim. */
  assignee_id: ColumnType<number | null, never, number | null>
  /**
   * The main-form intake of the same e-mail and phone, or the one whose Step 2 link the claim came
   * through (intake_by_link 1); null when none is known. Its address is the claim's only through the
   * link or the intake's confirmation (batch-claims.ts).
   */
  intake_id: number | null
  intake_by_link: ColumnType<number, number | undefined, number>
  /**
   * "This wasn't me" from the copy's link: when (epoch ms), from where, in what browser; null until then,
   * and null again once taken back within the day (undo-disown.ts).
   */
  disowned_at: ColumnType<number | null, never, number | null>
  disowned_ip: ColumnType<string | null, never, string | null>
  disowned_user_agent: ColumnType<string | null, never, string | null>
  /** The notice batch that holds the claim's notice of dispute, and its open filing batch (filing_batches). */
  notice_batch_id: ColumnType<number | null, never, number | null>
  filing_batch_id: ColumnType<number | null, never, number | null>
  /** The provider's case number, once imported. */
  case_number: ColumnType<string | null, never, string | null>
  /** Its campaign source (utm_source, "(none)" without), and the whole attribution as JSON (src/attribution.ts). */
  source: Generated<string>
  attribution: string | null
  /** What the form saw as it was filled in (src/form-signals.ts), as JSON; null from a client that sent none. */
  signals: ColumnType<string | null, string | null | undefined, never>
  /** 1,000 less the fraud deductions (server/fraud/), null until scored. */
  fraud_score: ColumnType<number | null, number | null | undefined, number | null>
  /** When a decider cleared the claim's fraud hold ("Not fraud"), epoch ms. */
  fraud_cleared_at: ColumnType<number | null, never, number | null>
}

/** A claim's fraud score job and its reasons (server/fraud/score-claim.job.ts); queued by a trigger. */
export interface FraudScoresTable {
  claim_id: number
  /** JSON: FraudReason[] (src/fraud-config.ts), null until scored. */
  reasons: string | null
  scored_at: number | null
  cleared_by: string | null
  cleared_note: string | null
  cleared_score: number | null
  /** The audit entry that sealed the clearance (its action 'fraud_cleared'). */
  cleared_audit_id: ColumnType<number | null, number | null | undefined, number | null>
  /** The reasons' codes the decider saw, space-separated, as the clearance's audit entry names them. */
  cleared_codes: ColumnType<string | null, string | null | undefined, string | null>
  due_at: ColumnType<number | null, number | null | undefined, number | null>
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
  attempts: ColumnType<number, number | undefined, number>
}

/** One deduction of a claim's score, for the filter by reason. */
export interface FraudReasonsTable {
  claim_id: number
  code: string
  points: number
}

/** A claim's normalised identity keys; claims sharing one are related (the cluster). */
export interface FraudKeysTable {
  /** 'device', 'network', 'email', 'phone', 'address', 'name_address' */
  kind: string
  value: string
  claim_id: number
  /** epoch ms of the form's send */
  at: number
  /** The claimant's folded first and last name: claims of one claimant share it. */
  identity: string
}

/** A claim the company's list names: 'not_customer' or 'duplicate'. */
export interface RespondentFlagsTable {
  claim_id: number
  list: string
  imported_at: number
  imported_by: string
}

/** A deficient claim's cure period, opened by the move that made it deficient (its id is the move's). */
export interface ClaimCuresTable {
  id: number
  claim_id: number
  app: string
  /** epoch ms */
  started_at: number
  expires_at: number
  /** 0 until the notice is sent, then 1; each reminder adds one. */
  notices_sent: Generated<number>
  /** When it was cured, ran out, or the claim was moved on. */
  ended_at: number | null
  /** The site's origin as the reviewer reached it, for the e-mailed links (PUBLIC_URL wins when set). */
  link_origin: string
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
  /** Takes since the row last moved on (server/jobs/lease.ts). */
  attempts: Generated<number>
  /** epoch ms when the row is due next (server/jobs/lease.ts); null: nothing to do. Inserted without it: due at once. */
  due_at: ColumnType<number | null, number | null | undefined, number | null>
}

/** A link a notice e-mailed (each its own, all valid while the cure is open); the token is never stored. */
export interface ClaimCureLinksTable {
  token_hash: string
  cure_id: number
  issued_at: number
  opened_at: number | null
}

/** What a claimant sent to cure a claim: a sealed record naming the one it amends. */
export interface ClaimAmendmentsTable {
  id: Generated<number>
  claim_id: number
  app: string
  amends_kind: 'claim' | 'amendment'
  amends_id: number
  amends_seal: string
  /** JSON: the reasons of the notice it answers. */
  reasons: string
  /** JSON: the corrected answers, when the notice asked for any. */
  fields: string | null
  screenshot_key: string | null
  screenshot_type: string | null
  screenshot_sha256: string | null
  signature: string | null
  signature_method: string | null
  amended_at: string
  ip_address: string
  user_agent: string
  locale: string
}

/** One move of a claim's review, who made it (null for the claimant or the server) and why. */
export interface ClaimMovesTable {
  id: Generated<number>
  claim_id: number
  app: string
  /** epoch ms */
  at: number
  from_status: string
  to_status: string
  reason: string | null
  /** The claimant-facing text a reviewer wrote for a free-text reason. */
  reason_text: string | null
  /** Internal: never shown to the claimant. */
  note: string | null
  account_id: number | null
  actor: string | null
  /** The audit entry (and so the ledger entry) of the move. */
  audit_id: number | null
}

/** The Funnel page's counters per source, app ('' for intakes) and UTC day, kept by triggers. */
export interface FunnelDaysTable {
  source: string
  app: string
  day: string
  intakes: ColumnType<number, never, never>
  claims: ColumnType<number, never, never>
  confirmed: ColumnType<number, never, never>
  approved: ColumnType<number, never, never>
  /** Of the claims, those with a fraud score, and of those the held (migration 2026_12_09_1500). */
  scored: ColumnType<number, never, never>
  held: ColumnType<number, never, never>
}

/** Each app's hold threshold (its fraud.json), written at start-up for the funnel's fraud triggers. */
export interface FraudHoldsTable {
  app: string
  hold: number
}

/** Each app's review roles (src/review-config.ts REVIEW_ROLES), written at start-up for the funnel's triggers. */
export interface ReviewRolesTable {
  app: string
  role: string
  status: string
}

/** A notice or filing batch (server/filing/filing-batches.ts), built by one server process under a lease. */
export interface FilingBatchesTable {
  id: Generated<number>
  app: string
  kind: 'notice' | 'filing'
  status: 'building' | 'ready' | 'failed'
  problem: string | null
  provider: string | null
  claim_count: number
  /** epoch ms */
  created_at: number
  account_id: number
  actor: string
  client_address: string
  link_origin: string
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
  /** Takes since the row last moved on (server/jobs/lease.ts). */
  attempts: Generated<number>
  /** epoch ms when the row is due next (server/jobs/lease.ts); null: nothing to do. Inserted without it: due at once. */
  due_at: ColumnType<number | null, number | null | undefined, number | null>
  file_key: string | null
  bytes: number | null
  sha256: string | null
  batch_hash: string | null
  /** YYYY-MM-DD */
  sent_on: string | null
  sent_method: string | null
  sent_tracking: string | null
}

/** A claim in a batch: its row ID (filing batches) and the provider's case number. */
export interface FilingBatchClaimsTable {
  batch_id: number
  claim_id: number
  row_id: string | null
  case_number: string | null
  /** Notice batches: the claimant's own certified mail number, once imported. */
  tracking_number: ColumnType<string | null, string | null | undefined, string | null>
}

/** A bulk move of an app's claims (server/review/bulk-moves.ts), run by one server process at a time. */
export interface BulkMovesTable {
  id: Generated<number>
  app: string
  to_status: string
  reason: string | null
  reason_text: string | null
  /** Internal: never shown to the claimant. */
  note: string | null
  /** Who asked for it: each claim's move is theirs. */
  account_id: number
  actor: string
  client_address: string
  link_origin: string
  /** epoch ms */
  created_at: number
  status: 'queued' | 'running' | 'done' | 'failed'
  /** The claims selected when it started. */
  total: number
  moved: Generated<number>
  skipped: Generated<number>
  /** The highest claim id done: the next page starts after it. */
  after_id: Generated<number>
  /** Pages that failed in a row; the job fails at the third. */
  failures: Generated<number>
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
  /** Takes since the row last moved on (server/jobs/lease.ts). */
  attempts: Generated<number>
  /** epoch ms when the row is due next (server/jobs/lease.ts); null: nothing to do. Inserted without it: due at once. */
  due_at: ColumnType<number | null, number | null | undefined, number | null>
  finished_at: number | null
}

/** The claims a bulk move was started on; removed once it is done. */
export interface BulkMoveClaimsTable {
  bulk_move_id: number
  claim_id: number
}

/** The agreement exactly as the claimant signed it; the database refuses updates. */
export interface AgreementRecordsTable {
  id: Generated<number>
  claim_id: number
  template: string
  template_version: string
  html: string
  sha256: string
  signature: string
  signed_at: ColumnType<Date | string, string, never>
  ip_address: string
  user_agent: string
  consent_text: string
  /** The language of the agreement and consent shown. */
  locale: Generated<string>
  /**
   * 'drawn' on the pad, 'typed': the full name typed (typed_signature) and drawn in a signature style, or
   * 'adopted': the main form's signature taken over (adopted_from names that intake).
   */
  signature_method: Generated<ClaimSigningMethod>
  typed_signature: string | null
  /** The intake ("IN-000042") whose signature an 'adopted' one is; null otherwise. */
  adopted_from: string | null
}

/** A claimant's e-mailed copy of a signed agreement, queued with the claim and sent in the background. */
export interface AgreementCopiesTable {
  claim_id: number
  /** epoch ms when the copy is due (again) */
  due_at: number
  attempts: Generated<number>
  /** epoch ms, null until sent */
  sent_at: number | null
  /** The server's own origin when the claim came in (linkOrigin): the confirmation link's when PUBLIC_URL is unset. */
  link_origin: string | null
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
}

/** A confirmation link's token (only its SHA-256, hex) and the claim it confirms. */
/** The tokens (their SHA-256) of the links in the e-mails after intakes. */
export interface IntakeConfirmationLinksTable {
  token_hash: string
  intake_id: number
  /** epoch ms */
  issued_at: number
}

export interface ClaimConfirmationLinksTable {
  token_hash: string
  claim_id: number
  /** epoch ms */
  issued_at: number
}

/** An app's count of confirmed claims, kept by triggers on claims. */
export interface ClaimAppConfirmedTable {
  app: string
  confirmed: number | string | bigint
}

/** SQLite only: the number of each app's partition of the search index (see migration 1800). */
export interface ClaimSearchAppsTable {
  app: string
  number: number
}

/** An app's claim count and sums, kept by triggers on claims (the dashboards' totals and averages). */
export interface ClaimAppTotalsTable {
  app: string
  claims: number | string | bigint
  membership_months_sum: number | string | bigint
  cash_advance_count_sum: number | string | bigint
}

/** An app's claims per UTC day (YYYY-MM-DD), kept by triggers on claims (the dashboards' chart). */
export interface ClaimAppDaysTable {
  app: string
  day: string
  claims: number | string | bigint
}

/** The one key (id 1) the proof-of-work challenges are signed with, made on first use (proof-of-work.ts). */
export interface ProofOfWorkKeysTable {
  id: number
  /** 64 hex characters */
  hmac_key: string
  created_at: string
}

/** Each solved challenge accepted, kept until it expires so it is accepted once. */
export interface ProofOfWorkSpentTable {
  challenge: string
  /** epoch milliseconds */
  expires_at: number
}

/** A one-time link's or a download key's SHA-256, never the token itself. */
export interface AgreementLinksTable {
  token_hash: string
  purpose: 'link' | 'download'
  email: string
  /** JSON array: the stored forms of the phone the claimant typed */
  phone_numbers: string
  /** epoch ms */
  created_at: number
  expires_at: number
  used_at: number | null
}

/** Fixed-window counters shared by every server process on the database. */
export interface RateLimitsTable {
  key: string
  window_started_at: number
  hits: number
}

/** A member of the firm's staff (staff-accounts.ts); e-mail lower-case. */
export interface StaffAccountsTable {
  id: Generated<number>
  email: string
  name: string
  role: 'admin' | 'staff'
  /** scrypt$N$r$p$salt$hash, never the password; null until the invitation is accepted */
  password_hash: string | null
  /** the TOTP secret once two-factor sign-in is on, encrypted under DATA_DIR/two-factor.key (totp1:…) */
  totp_secret: string | null
  /** a secret being set up, not yet confirmed with a code; encrypted like totp_secret */
  totp_pending_secret: string | null
  /** the time step of the last code accepted: a code is good once (two-factor/totp.ts) */
  totp_last_step: number | null
  /** SHA-256 of the code e-mailed before a required set-up (two-factor/two-factor-account.ts), and until when it works */
  totp_setup_code_hash: string | null
  totp_setup_code_expires_at: number | null
  disabled_at: number | null
  created_at: number
}

/** Failed sign-ins per e-mail address typed (staff/sign-in-backoff.ts); email_key is the address's SHA-256. */
export interface StaffSignInFailuresTable {
  email_key: string
  failures: number
  last_failure_at: number
  /** sign-in to the address is refused until then */
  paused_until: number | null
}

/** The apps a `staff` account may see; can_export 0/1. */
export interface StaffAccountAppsTable {
  account_id: number
  app: string
  can_export: number
  /** 1: may decide the app's claims (approve, reject) and move them in bulk. */
  can_decide: Generated<number>
  /** 1: may approve the app's payout batches (the payments right); never one the account built. */
  can_pay: Generated<number>
}

export interface StaffRecoveryCodesTable {
  account_id: number
  /** SHA-256 of the code, never the code */
  code_hash: string
  used_at: number | null
}

/** One-time links to set a password: an invitation, or (account_id null) a fresh install's first admin. */
export interface StaffInvitesTable {
  token_hash: string
  account_id: number | null
  created_at: number
  expires_at: number
  used_at: number | null
}

/** One row per signed-in staff browser; the cookie holds the token, the table only its SHA-256. */
export interface StaffSessionsTable {
  token_hash: string
  account_id: number
  created_at: number
  /** the absolute end */
  expires_at: number
  /** for the idle timeout */
  last_seen_at: number
}

export interface AuditLogTable {
  id: Generated<number>
  at: ColumnType<Date | string, string, never>
  client_address: string
  app: string | null
  action: string
  detail: string | null
  /** the account that acted; null for an attempt nobody could be named for */
  account_id: number | null
  /** that account's e-mail when it acted */
  actor: string | null
}

/** The main intake form; booleans are 0/1, lists are JSON arrays. */
export interface FormSubmissionsTable {
  id: Generated<number>
  created_at: ColumnType<Date | string, string, never>
  cash_advance_apps: string
  fees_incurred: string
  is_over_18: number
  is_active_military: number
  has_bankruptcy: number
  first_name: string
  last_name: string
  email: string
  phone: string
  address: string
  address_line_2: string
  city: string
  state: string
  zip_code: string
  signature: string
  consent_agreed: number
  communications_consent: number
  consent_version: string
  consent_text: string
  communications_consent_text: string
  legal_hold: Generated<number>
  /** The claimant's language ('en', 'es'); the consent texts are stored as shown in it. */
  locale: Generated<string>
  /** The agreement the consent names, exactly as shown and signed ('' on intakes from before). */
  agreement_template: Generated<string>
  agreement_template_version: Generated<string>
  agreement_html: Generated<string>
  agreement_sha256: Generated<string>
  ip_address: Generated<string>
  user_agent: Generated<string>
  /** 'drawn' on the pad, or 'typed': the full name typed (typed_signature) and drawn in a signature style. */
  signature_method: Generated<SigningMethod>
  typed_signature: Generated<string | null>
  /** "Confirm it was you" from the e-mail after the intake: when, from where, in what browser. */
  confirmed_at: ColumnType<Date | string | null, never, string>
  confirmed_ip: ColumnType<string | null, never, string>
  confirmed_user_agent: ColumnType<string | null, never, string>
  /** "This wasn't me" from the same e-mail (epoch ms), from where, in what browser; null once taken back. */
  disowned_at: ColumnType<number | null, never, number | null>
  disowned_ip: ColumnType<string | null, never, string | null>
  disowned_user_agent: ColumnType<string | null, never, string | null>
  /** Its campaign source (utm_source, "(none)" without), and the whole attribution as JSON (src/attribution.ts). */
  source: Generated<string>
  attribution: Generated<string | null>
  /** What the form saw as it was filled in (src/form-signals.ts), as JSON; null from a client that sent none. */
  signals: ColumnType<string | null, string | null | undefined, never>
}

/**
 * The evidence ledger: one chain per database. Each entry seals a record (a claim's or an intake's
 * signing, a staff action) or marks one purged, and its hash covers the previous entry's hash, so a
 * changed or removed entry breaks the chain there. The database refuses to change or remove entries.
 */
export interface EvidenceLedgerTable {
  /** 1, 2, 3, … with no gap. */
  seq: number
  at: string
  kind: string
  subject: string
  /** The SHA-256 (hex) of the record's canonical serialisation. */
  seal: string
  /** HMAC-SHA-256 of the seal under the evidence key, which is not in the database. */
  seal_hmac: string
  /** Canonical JSON: no one's personal data (a purge's reason). */
  detail: string
  prev_hash: string
  /** SHA-256 of the entry's canonical text (entryText), which includes prev_hash. */
  hash: string
  /** HMAC-SHA-256 of the hash under the evidence key. */
  hmac: string
}

/** A day the admins were e-mailed the evidence ledger's head (YYYY-MM-DD, UTC), and when (epoch ms). */
export interface EvidenceDigestsTable {
  day: string
  sent_at: number
}

/** One case per app chosen on the main form (the spec's per-app case tables, as one table). */
export interface IntakeCasesTable {
  id: Generated<number>
  original_submission_id: number
  app: string
  created_at: ColumnType<Date | string, string, never>
  first_name: string
  last_name: string
  email: string
  phone: string
  address: string
  address_line_2: string
  city: string
  state: string
  zip_code: string
  fees_incurred: string
  is_over_18: number
  is_active_military: number
  has_bankruptcy: number
  signature: string
  consent_agreed: number
}

/** A claim waiting for its screenshot to be hashed and matched (server/duplicates/), queued by a trigger. */
export interface ScreenshotChecksTable {
  claim_id: number
  /** epoch ms when the check is due (again) */
  due_at: number
  attempts: Generated<number>
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
}

/** A claim's screenshot, hashed: 'hashed', or 'unreadable' when its file was missing or did not decode. */
export interface ScreenshotHashesTable {
  claim_id: number
  status: string
  sha256: string | null
  /** The perceptual hashes (hex), the whole picture's first, separated by spaces; null for a flat picture. */
  perceptual_hash: string | null
  checked_at: number
}

/** Each perceptual hash of a screenshot, cut into indexed bands (screenshot-bands.ts). */
export interface ScreenshotHashBandsTable {
  claim_id: number
  variant: number
  hash: string
  band0: number
  band1: number
  band2: number
  band3: number
  band4: number
  band5: number
}

/** Two claimants' claims with the same screenshot, once each way. */
export interface ScreenshotMatchesTable {
  claim_id: number
  other_claim_id: number
  /** 'exact' or 'near' */
  kind: string
  distance: number
}

/** A flagged pair a reviewer decided is not a duplicate: its screenshot_matches rows, once each way. */
export interface DuplicateDecisionsTable {
  claim_id: number
  other_claim_id: number
  kind: string
  distance: number
  decided_at: number | string | bigint
  account_id: number
  actor: string
  audit_id: number
}

/** Per intake: the e-mails sent after it (journey-mail.ts) and when the next is due. */
export interface ClaimantJourneysTable {
  intake_id: number
  created_at: number
  mails_sent: Generated<number>
  last_mail_at: number | null
  time_zone: string
  link_origin: string
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
  /** Takes since the row last moved on (server/jobs/lease.ts). */
  attempts: Generated<number>
  /** epoch ms when the row is due next (server/jobs/lease.ts); null: nothing to do. Inserted without it: due at once. */
  due_at: ColumnType<number | null, number | null | undefined, number | null>
}

/** An address that asked for no more reminders. */
export interface EmailSuppressionsTable {
  email: string
  created_at: number
  source: string
}

/** A phone that replied STOP to a text reminder. */
export interface SmsSuppressionsTable {
  phone: string
  created_at: number
}

/** The provider's message id of each STOP or START honoured: a replayed webhook is honoured once. */
export interface SmsRepliesTable {
  message_sid: string
  phone: string
  created_at: number
}

/** A text reminder's pre-fill token already used, by the id it carries (journey-tokens.ts). */
export interface UsedPrefillTokensTable {
  token_id: string
  /** The token's own expiry: after it the token is refused anyway, and the row can go. */
  expires_at: number
  used_at: number
}

/** Reminders sent in each minute (epoch minute), counted by every server process. */
export interface ReminderWindowsTable {
  minute: number
  sent: number
}

/** An admin's webhook receiver (server/webhooks/); booleans are 0/1, events a JSON array. */
export interface WebhookEndpointsTable {
  id: Generated<number>
  url: string
  events: string
  include_details: number
  is_active: number
  /** Its secret is derived from this and the evidence key (webhook-secret.ts); the secret is not stored. */
  secret_salt: string
  created_at: number
  created_by: string
}

/** One event's delivery to one endpoint: the webhooks' outbox and its log. */
export interface WebhookDeliveriesTable {
  id: Generated<number>
  endpoint_id: number
  event_id: string
  type: string
  /** JSON: the body's data without the claimant's details */
  data: string
  created_at: number
  status: Generated<'pending' | 'delivered' | 'failed'>
  attempts: Generated<number>
  give_up_at: number
  last_attempt_at: number | null
  last_status_code: number | null
  last_error: string | null
  /** The process holding the row (server/jobs/lease.ts), until lease_until (epoch ms). */
  lease_owner: ColumnType<string | null, string | null | undefined, string | null>
  lease_until: ColumnType<number | null, number | null | undefined, number | null>
  /** epoch ms when the row is due next (server/jobs/lease.ts); null: nothing to do. Inserted without it: due at once. */
  due_at: ColumnType<number | null, number | null | undefined, number | null>
}

/** Money columns: integer cents; PostgreSQL's bigint comes back as a string, read with Number(). */
type Cents = ColumnType<number, number, number>

/** A sum the company pays for many claims, shared by a rule (server/payouts/allocate-settlement.ts). */
export interface SettlementsTable {
  id: Generated<number>
  app: string
  total_cents: Cents
  rule: 'equal' | 'cashAdvanceCount'
  name: string
  created_at: number
  created_by: string
}

/** A claim's gross award or settlement share. */
export interface ClaimAwardsTable {
  claim_id: number
  app: string
  gross_cents: Cents
  /** Case costs the firm advanced on this claim alone; at most the award. */
  costs_cents: ColumnType<number, number | undefined, number>
  source: 'entered' | 'imported' | 'settlement'
  settlement_id: number | null
  set_at: number
  set_by: string
}

/** The claimant's signed consent to a settlement's allocation (ABA Model Rule 1.8(g)), as shown. */
export interface SettlementConsentsTable {
  claim_id: number
  settlement_id: number
  html: string
  sha256: string
  signature_method: string
  signature: string
  locale: string
  signed_at: number
  ip_address: string
  user_agent: string
}

export type PayoutMethod = 'paypal' | 'venmo' | 'ach' | 'check'

/** How the claimant is paid; the bank account number sealed (server/payouts/sealed-numbers.ts). */
export interface PayoutChoicesTable {
  claim_id: number
  method: PayoutMethod
  receiver: string | null
  receiver_type: 'email' | 'phone' | null
  routing_number: string | null
  account_sealed: string | null
  account_last4: string | null
  account_type: 'checking' | 'savings' | null
  chosen_at: number
}

/** The claimant's W-9, its taxpayer number sealed. */
export interface TaxFormsTable {
  claim_id: number
  legal_name: string
  tin_type: 'ssn' | 'ein'
  tin_sealed: string
  tin_last4: string
  address: string
  city: string
  state: string
  zip_code: string
  signature_method: string
  signature: string
  certified_at: number
  ip_address: string
  user_agent: string
}

/** A payout batch: built by one account, approved by another, then sent (its lease the send job's). */
export interface PayoutBatchesTable {
  id: Generated<number>
  app: string
  status: 'built' | 'approved' | 'sent' | 'closed'
  costs_cents: Cents
  built_by: number
  built_at: number
  approved_by: number | null
  approved_at: number | null
  sent_at: number | null
  due_at: number | null
  lease_owner: string | null
  lease_until: number | null
  attempts: Generated<number>
}

export type PayoutItemStatus = 'pending' | 'sent' | 'paid' | 'failed' | 'unclaimed' | 'returned'

/** One claim's payment in a batch: its split and the payment's state. */
export interface PayoutItemsTable {
  id: Generated<number>
  batch_id: number
  claim_id: number
  method: PayoutMethod
  gross_cents: Cents
  fee_percent: string
  fee_cents: Cents
  /** The costs charged: claim_costs_cents + batch_costs_cents, capped at what the fee left. */
  costs_cents: Cents
  /** The costs advanced on the claim alone, as asked. */
  claim_costs_cents: ColumnType<number, number | undefined, number>
  /** The claim's share of the batch's costs, as asked. */
  batch_costs_cents: ColumnType<number, number | undefined, number>
  withholding_cents: Cents
  net_cents: Cents
  status: PayoutItemStatus
  provider_batch_id: string | null
  provider_item_id: string | null
  check_number: number | null
  failure: string | null
  replaces_item_id: number | null
  updated_at: number
}

export type TrustEntryKind = 'received' | 'fee' | 'costs' | 'withholding' | 'net' | 'returned'

/** A cent into (+) or out of (-) the firm's trust account, sealed on the evidence chain. */
export interface TrustEntriesTable {
  id: Generated<number>
  app: string
  batch_id: number | null
  claim_id: number | null
  kind: TrustEntryKind
  amount_cents: Cents
  at: number
}

/** A PayPal webhook event applied to a payout item, kept so that a delivery repeated is applied once. */
export interface PayoutEventsTable {
  event_id: string
  item_id: number
  event_type: string
  received_at: number
}

export interface Database {
  claimant_journeys: ClaimantJourneysTable
  email_suppressions: EmailSuppressionsTable
  reminder_windows: ReminderWindowsTable
  sms_suppressions: SmsSuppressionsTable
  sms_replies: SmsRepliesTable
  used_prefill_tokens: UsedPrefillTokensTable
  claims: ClaimsTable
  claim_moves: ClaimMovesTable
  filing_batches: FilingBatchesTable
  funnel_days: FunnelDaysTable
  review_roles: ReviewRolesTable
  fraud_holds: FraudHoldsTable
  filing_batch_claims: FilingBatchClaimsTable
  bulk_moves: BulkMovesTable
  bulk_move_claims: BulkMoveClaimsTable
  claim_cures: ClaimCuresTable
  claim_cure_links: ClaimCureLinksTable
  claim_amendments: ClaimAmendmentsTable
  evidence_ledger: EvidenceLedgerTable
  evidence_digests: EvidenceDigestsTable
  agreement_records: AgreementRecordsTable
  agreement_copies: AgreementCopiesTable
  claim_confirmation_links: ClaimConfirmationLinksTable
  intake_confirmation_links: IntakeConfirmationLinksTable
  claim_app_confirmed: ClaimAppConfirmedTable
  claim_app_totals: ClaimAppTotalsTable
  claim_search_apps: ClaimSearchAppsTable
  claim_app_days: ClaimAppDaysTable
  rate_limits: RateLimitsTable
  proof_of_work_keys: ProofOfWorkKeysTable
  proof_of_work_spent: ProofOfWorkSpentTable
  agreement_links: AgreementLinksTable
  staff_accounts: StaffAccountsTable
  staff_account_apps: StaffAccountAppsTable
  staff_recovery_codes: StaffRecoveryCodesTable
  staff_sign_in_failures: StaffSignInFailuresTable
  staff_invites: StaffInvitesTable
  staff_sessions: StaffSessionsTable
  audit_log: AuditLogTable
  form_submissions: FormSubmissionsTable
  fraud_scores: FraudScoresTable
  fraud_reasons: FraudReasonsTable
  fraud_keys: FraudKeysTable
  respondent_flags: RespondentFlagsTable
  intake_cases: IntakeCasesTable
  screenshot_checks: ScreenshotChecksTable
  screenshot_hashes: ScreenshotHashesTable
  screenshot_hash_bands: ScreenshotHashBandsTable
  screenshot_matches: ScreenshotMatchesTable
  duplicate_decisions: DuplicateDecisionsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  settlements: SettlementsTable
  claim_awards: ClaimAwardsTable
  settlement_consents: SettlementConsentsTable
  payout_choices: PayoutChoicesTable
  tax_forms: TaxFormsTable
  payout_batches: PayoutBatchesTable
  payout_items: PayoutItemsTable
  trust_entries: TrustEntriesTable
  payout_events: PayoutEventsTable
}

export type Dialect = 'sqlite' | 'postgres'

export interface DatabaseHandle {
  db: Kysely<Database>
  dialect: Dialect
}
