import crypto from 'node:crypto'
import type { Selectable } from 'kysely'
import type { ClaimData } from '../../src/form-config.ts'
import type {
  AgreementRecordsTable,
  AuditLogTable,
  ClaimAmendmentsTable,
  ClaimsTable,
  FormSubmissionsTable,
} from '../db/database.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { canonicalJson, canonicalMembers, type CanonicalValue } from './canonical-json.ts'
import { sha256Hex } from '../platform/token-hash.ts'

/**
 * Everything that proves a claim's signing, as sealed: what the claimant gave (their fields as stored,
 * the signature image, the screenshot's SHA-256), what they were shown (the agreement's HTML, the
 * consent), and when, from where and how. Its canonical serialisation (canonicalJson) is the claim's
 * record.json; the SHA-256 of those bytes is its seal.
 */
export interface ClaimRecord {
  kind: 'claim'
  id: number
  app: string
  /** The answers as stored: names trimmed, e-mail lowercased (no file name, no signature). */
  fields: Omit<ClaimData, 'screenshotFile' | 'signature'>
  agreement: { template: string; templateVersion: string; locale: string; html: string }
  consent: { text: string }
  /** adoptedFrom: the intake ("IN-000042") whose signature was adopted; only on an adopted signature. */
  signature: { image: string; method: string; typedName: string | null; adoptedFrom?: string }
  screenshot: { sha256: string; type: string }
  locale: string
  signedAt: string
  ipAddress: string
  userAgent: string
}

/** A main-form intake's signing, sealed as a claim's is (it has no screenshot; its consent is versioned). */
export interface IntakeRecord {
  kind: 'intake'
  id: number
  fields: Record<string, string | number | boolean | string[]>
  agreement: { template: string; templateVersion: string; locale: string; html: string }
  consent: { version: string; text: string; communicationsText: string }
  signature: { image: string; method: string; typedName: string | null }
  locale: string
  signedAt: string
  ipAddress: string
  userAgent: string
}

/** A staff action of the audit log, sealed into the ledger as it is written. */
export interface AuditRecord {
  kind: 'audit'
  id: number
  at: string
  clientAddress: string
  app: string | null
  action: string
  detail: string | null
  /** The acting account's id and e-mail; absent from entries written before named accounts. */
  accountId?: number
  actor?: string
}

/**
 * A claimant's confirmation from the link in an e-mail: sealed into the ledger under the subject of
 * what it confirms (a Step 2 copy's claim, or the intake the e-mail after it names), beside its own seal.
 */
export type ConfirmationRecord = {
  kind: 'confirmation'
  confirmedAt: string
  ipAddress: string
  userAgent: string
} & ({ claimId: number } | { intakeId: number })

/**
 * What a claimant sent to cure a deficient claim, sealed under its own subject ('amendment:N') and
 * naming the record it amends by kind, id and seal: the claim's own, or the amendment before it. Only
 * what the notice asked for is present; the claim's row and record stay as they were signed.
 */
export interface AmendmentRecord {
  kind: 'amendment'
  id: number
  claimId: number
  app: string
  amends: { kind: 'claim' | 'amendment'; id: number; seal: string }
  /** The reasons of the notice it answers. */
  reasons: string[]
  /** Corrected answers ({ firstName, lastName }) or statements ({ over18: true }); null when none were asked. */
  fields: Record<string, string | boolean> | null
  screenshot: { sha256: string; type: string } | null
  signature: { image: string; method: string } | null
  amendedAt: string
  ipAddress: string
  userAgent: string
  locale: string
}

export type SealedRecord = ClaimRecord | IntakeRecord | AuditRecord | ConfirmationRecord | AmendmentRecord

export function recordText(record: SealedRecord): string {
  return canonicalJson(record as unknown as CanonicalValue)
}

export function sealOf(record: SealedRecord): string {
  return sha256Hex(recordText(record))
}

/**
 * A record's canonical text in two parts around its id, which the database gives only when the row is
 * inserted: `before + id + after` is recordText({ ...record, id }). The agreement's HTML makes a record
 * some 20 KB of text; the parts are written where the agreement is rendered, off the event loop.
 */
export interface RecordParts {
  /** UTF-8, each with a buffer of its own, so the content thread can hand them over without a copy. */
  before: Uint8Array
  after: Uint8Array
}

export function recordParts(record: Omit<ClaimRecord, 'id'>): RecordParts {
  const members = canonicalMembers(record as unknown as { [key: string]: CanonicalValue })
  const at = members.findIndex((member) => member > '"id"')
  const cut = at === -1 ? members.length : at
  const before = members.slice(0, cut)
  const after = members.slice(cut)
  return {
    before: ownUtf8(`{${before.join(',')}${before.length > 0 ? ',' : ''}"id":`),
    after: ownUtf8(`${after.length > 0 ? ',' : ''}${after.join(',')}}`),
  }
}

/**
 * The text's UTF-8 in memory of its own (a short Buffer.from would be a slice of Node's shared pool,
 * which cannot be handed to another thread); a sixth of TextEncoder's time for a record's 20 KB.
 */
export function ownUtf8(text: string): Uint8Array {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'))
  bytes.write(text, 'utf8')
  return bytes
}

/** The seal of the record whose parts these are, once its id is known. */
export function sealOfParts({ before, after }: RecordParts, id: number): string {
  return crypto.createHash('sha256').update(before).update(String(id)).update(after).digest('hex')
}

/** The claim's record as its stored rows tell it (the verifier and the evidence bundle rebuild it so). */
export function claimRecordFromRows(
  claim: Omit<
    Selectable<ClaimsTable>,
    | 'created_at'
    | 'screenshot_key'
    | 'legal_hold'
    | 'confirmed_at'
    | 'confirmed_ip'
    | 'confirmed_user_agent'
    | 'review_status'
    | 'review_version'
    | 'review_reason'
    | 'review_moved_at'
    | 'assignee_id'
    | 'intake_id'
    | 'intake_by_link'
    | 'disowned_at'
    | 'disowned_ip'
    | 'disowned_user_agent'
    | 'notice_batch_id'
    | 'filing_batch_id'
    | 'case_number'
    | 'source'
    | 'attribution'
    | 'signals'
    | 'fraud_score'
    | 'fraud_cleared_at'
  >,
  agreement: Omit<Selectable<AgreementRecordsTable>, 'id' | 'claim_id' | 'sha256'>,
): ClaimRecord {
  return {
    kind: 'claim',
    id: Number(claim.id),
    app: claim.app,
    fields: {
      firstName: claim.first_name,
      lastName: claim.last_name,
      email: claim.email,
      phoneNumber: claim.phone_number,
      cashAdvanceCount: Number(claim.cash_advance_count),
      membershipMonths: Number(claim.membership_months),
    },
    agreement: {
      template: agreement.template,
      templateVersion: agreement.template_version,
      locale: agreement.locale,
      html: agreement.html,
    },
    consent: { text: agreement.consent_text },
    signature: {
      image: agreement.signature,
      method: agreement.signature_method,
      typedName: agreement.typed_signature,
      ...(agreement.adopted_from === null ? {} : { adoptedFrom: agreement.adopted_from }),
    },
    screenshot: { sha256: claim.screenshot_sha256, type: claim.screenshot_type },
    locale: claim.locale,
    signedAt: isoTimestamp(agreement.signed_at),
    ipAddress: agreement.ip_address,
    userAgent: agreement.user_agent,
  }
}

/** The intake's record as its stored row tells it. */
export function intakeRecordFromRow(
  // what the claimant signed: later answers to its e-mail (confirmed_*, disowned_*) are records of their own
  row: Omit<
    Selectable<FormSubmissionsTable>,
    | 'legal_hold'
    | 'agreement_sha256'
    | 'confirmed_at'
    | 'confirmed_ip'
    | 'confirmed_user_agent'
    | 'disowned_at'
    | 'disowned_ip'
    | 'disowned_user_agent'
    | 'source'
    | 'attribution'
  >,
): IntakeRecord {
  return {
    kind: 'intake',
    id: Number(row.id),
    fields: {
      cashAdvanceApps: JSON.parse(row.cash_advance_apps) as string[],
      feesIncurred: JSON.parse(row.fees_incurred) as string[],
      isOver18: Number(row.is_over_18) === 1,
      isActiveMilitary: Number(row.is_active_military) === 1,
      hasBankruptcy: Number(row.has_bankruptcy) === 1,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      address: row.address,
      addressLine2: row.address_line_2,
      city: row.city,
      state: row.state,
      zipCode: row.zip_code,
      consentAgreed: Number(row.consent_agreed) === 1,
      communicationsConsent: Number(row.communications_consent) === 1,
    },
    agreement: {
      template: row.agreement_template,
      templateVersion: row.agreement_template_version,
      locale: row.locale,
      html: row.agreement_html,
    },
    consent: {
      version: row.consent_version,
      text: row.consent_text,
      communicationsText: row.communications_consent_text,
    },
    signature: { image: row.signature, method: row.signature_method, typedName: row.typed_signature },
    locale: row.locale,
    signedAt: isoTimestamp(row.created_at),
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
  }
}

export function auditRecordFromRow(row: Selectable<AuditLogTable>): AuditRecord {
  return {
    kind: 'audit',
    id: Number(row.id),
    at: isoTimestamp(row.at),
    clientAddress: row.client_address,
    app: row.app,
    action: row.action,
    detail: row.detail,
    ...(row.account_id === null ? {} : { accountId: Number(row.account_id) }),
    ...(row.actor === null ? {} : { actor: row.actor }),
  }
}

/** The confirmation's record as the claim's (or intake's) row tells it; undefined while not confirmed. */
export function confirmationRecordFromRow(
  row: {
    id: number
    confirmed_at: Date | string | null
    confirmed_ip: string | null
    confirmed_user_agent: string | null
  },
  of: 'claim' | 'intake' = 'claim',
): ConfirmationRecord | undefined {
  if (row.confirmed_at === null) return undefined
  return {
    kind: 'confirmation',
    ...(of === 'claim' ? { claimId: Number(row.id) } : { intakeId: Number(row.id) }),
    confirmedAt: isoTimestamp(row.confirmed_at),
    ipAddress: row.confirmed_ip ?? '',
    userAgent: row.confirmed_user_agent ?? '',
  }
}

/** The amendment's record as its stored row tells it. */
export function amendmentRecordFromRow(row: Selectable<ClaimAmendmentsTable>): AmendmentRecord {
  return {
    kind: 'amendment',
    id: Number(row.id),
    claimId: Number(row.claim_id),
    app: row.app,
    amends: { kind: row.amends_kind, id: Number(row.amends_id), seal: row.amends_seal },
    reasons: JSON.parse(row.reasons) as string[],
    fields: row.fields === null ? null : (JSON.parse(row.fields) as Record<string, string | boolean>),
    screenshot:
      row.screenshot_sha256 === null
        ? null
        : { sha256: row.screenshot_sha256, type: row.screenshot_type ?? '' },
    signature: row.signature === null ? null : { image: row.signature, method: row.signature_method ?? '' },
    amendedAt: row.amended_at,
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    locale: row.locale,
  }
}
