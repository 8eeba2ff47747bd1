import type { Kysely, Selectable } from 'kysely'
import type { FraudReason } from '../../src/fraud-config.ts'
import type { AuditLogTable, Database } from '../db/database.ts'
import { subjectOf } from '../evidence/ledger.ts'
import { auditRecordFromRow, recordText } from '../evidence/sealed-record.ts'
import { fraudSummary } from './fraud-summary.ts'

/** The audit log's action that seals a decider's "Not fraud" on a claim. */
export const FRAUD_CLEARED = 'fraud_cleared'

/** A claim's "Not fraud" as its rows keep it (claims.fraud_cleared_at, fraud_scores.cleared_*). */
export interface FraudClearance {
  claimId: number
  /** epoch ms */
  clearedAt: number
  /** The decider's e-mail, as the audit entry's actor names them. */
  by: string
  note: string
  /** The score the decider saw. */
  score: number
  /** The codes of the reasons the decider saw. */
  codes: readonly string[]
}

/**
 * The detail of the 'fraud_cleared' audit entry: with the entry's actor, it is the whole clearance, so
 * the ledger's seal of the entry covers who cleared the claim, when, at what score and why.
 * @example fraudClearedDetail({ claimId: 12, clearedAt: 0, by: 'a@firm.test', note: 'known family', score: 540, codes: ['device_shared'] })
 *   // 'claim 12: not fraud at fraud score 540 (device_shared), cleared 1970-01-01T00:00:00.000Z: known family'
 */
export function fraudClearedDetail({ claimId, clearedAt, note, score, codes }: FraudClearance): string {
  return `claim ${claimId}: not fraud at ${fraudSummary(score, codes)}, cleared ${new Date(clearedAt).toISOString()}: ${note}`
}

/** The stored codes (fraud_scores.cleared_codes) as a list. */
export function clearedCodes(stored: string | null): string[] {
  return stored ? stored.split(' ') : []
}

/** A claim's score columns as the verifier and the evidence bundle read them. */
export interface ClearanceColumns {
  id: number
  app: string
  fraud_cleared_at: number | null
  cleared_by: string | null
  cleared_note: string | null
  cleared_score: number | null
  cleared_audit_id: number | null
  cleared_codes: string | null
}

/**
 * Why the clearance on a claim's rows is not the one its audit entry sealed (undefined when it is, or
 * when the claim is not cleared): a clearance without an entry, naming a missing one, or differing
 * from it in any part (decider, time, note, score, app).
 */
export function clearanceProblem(
  claim: ClearanceColumns,
  audit: Selectable<AuditLogTable> | undefined,
): string | undefined {
  if (claim.fraud_cleared_at === null) return undefined
  const name = `claim ${claim.id}`
  if (claim.cleared_audit_id === null) {
    return `${name}: cleared of its fraud hold, but no audit entry seals the clearance`
  }
  if (!audit) {
    return `${name}: its fraud clearance names audit entry ${claim.cleared_audit_id}, which is missing`
  }
  const sealed =
    audit.action === FRAUD_CLEARED &&
    audit.app === claim.app &&
    audit.actor === claim.cleared_by &&
    audit.detail ===
      fraudClearedDetail({
        claimId: Number(claim.id),
        clearedAt: Number(claim.fraud_cleared_at),
        by: claim.cleared_by ?? '',
        note: claim.cleared_note ?? '',
        score: Number(claim.cleared_score),
        codes: clearedCodes(claim.cleared_codes),
      })
  return sealed
    ? undefined
    : `${name}: fraud clearance differs from audit entry ${audit.id}, which sealed it (the clearance was changed)`
}

/**
 * fraud.json of a claim's evidence bundle: its score now, each deduction, when it was scored, and the
 * decider's clearance with the audit record that sealed it (canonical text: its SHA-256 is the seal of
 * the ledger entry beside it). A claim not scored yet has a null score and no reasons.
 */
export async function fraudEvidence(db: Kysely<Database>, claimId: number) {
  const row = await db
    .selectFrom('claims')
    .leftJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
    .select([
      'claims.id',
      'claims.app',
      'claims.fraud_score',
      'claims.fraud_cleared_at',
      'fraud_scores.reasons',
      'fraud_scores.scored_at',
      'fraud_scores.cleared_by',
      'fraud_scores.cleared_note',
      'fraud_scores.cleared_score',
      'fraud_scores.cleared_audit_id',
      'fraud_scores.cleared_codes',
    ])
    .where('claims.id', '=', claimId)
    .executeTakeFirstOrThrow()
  const auditId = row.cleared_audit_id === null ? null : Number(row.cleared_audit_id)
  const [audit, entry] =
    auditId === null || row.fraud_cleared_at === null
      ? [undefined, undefined]
      : await Promise.all([
          db.selectFrom('audit_log').selectAll().where('id', '=', auditId).executeTakeFirst(),
          db
            .selectFrom('evidence_ledger')
            .selectAll()
            .where('subject', '=', subjectOf('audit', auditId))
            .executeTakeFirst(),
        ])
  const reasons = row.reasons === null ? [] : (JSON.parse(row.reasons) as FraudReason[])
  return {
    claimId: Number(row.id),
    score: row.fraud_score === null ? null : Number(row.fraud_score),
    scoredAt: row.scored_at === null ? null : new Date(Number(row.scored_at)).toISOString(),
    reasons: reasons.map(({ code, points, text, related }) => ({
      code,
      points,
      text,
      related: related ?? [],
    })),
    clearance:
      row.fraud_cleared_at === null
        ? null
        : {
            by: row.cleared_by,
            at: new Date(Number(row.fraud_cleared_at)).toISOString(),
            note: row.cleared_note,
            scoreSeen: row.cleared_score === null ? null : Number(row.cleared_score),
            reasonsSeen: clearedCodes(row.cleared_codes),
            auditEntry: auditId,
            sealedRecord: audit ? recordText(auditRecordFromRow(audit)) : null,
            ledgerEntry: entry ? { ...entry, seq: Number(entry.seq) } : null,
          },
  }
}
