import type { Request, Response } from 'express'
import type { Kysely, Transaction } from 'kysely'
import { clientAddress as addressOf } from '../client-address.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'
import { auditRecordFromRow, sealOf } from '../evidence/sealed-record.ts'
import { staffAccountOf } from '../staff/require-staff.ts'

export type AuditAction =
  | 'login_success'
  | 'login_failure'
  | 'logout'
  | 'export'
  | 'form_1099_download'
  | 'claim_view'
  | 'intake_view'
  | 'screenshot_view'
  | 'evidence_download'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'recovery_codes_regenerated'
  | 'legal_hold_set'
  | 'legal_hold_lifted'
  | 'claim_moved'
  | 'claim_assigned'
  | 'cure_notice_sent'
  | 'cure_link_opened'
  | 'claim_amended'
  | 'bulk_move'
  | 'duplicate_cleared'
  | 'fraud_cleared'
  | 'claim_disowned'
  | 'intake_disowned'
  | 'claim_disown_undone'
  | 'intake_disown_undone'
  | 'batch_started'
  | 'batch_sealed'
  | 'batch_failed'
  | 'batch_download'
  | 'notice_batch_sent'
  | 'case_numbers_imported'
  | 'tracking_numbers_imported'
  | 'respondent_list_imported'
  | 'webhook_created'
  | 'webhook_changed'
  | 'webhook_deleted'
  | 'webhook_sent_again'
  | 'award_entered'
  | 'award_corrected'
  | 'award_costs_set'
  | 'awards_imported'
  | 'settlement_allocated'
  | 'payout_batch_built'
  | 'payout_batch_approved'
  | 'payout_batch_sent'
  | 'payout_file_download'
  | 'payout_choice_saved'
  | 'tax_form_filed'
  | AccountAction

/** Changes to staff accounts; the detail names the target by e-mail, never a password or a link. */
export type AccountAction =
  | 'account_invited'
  | 'invite_resent'
  | 'invite_accepted'
  | 'account_changed'
  | 'account_disabled'
  | 'account_enabled'
  | 'two_factor_reset'
  | 'password_changed'

/** One line of who did what from where; never a claimant's personal data. */
export interface AuditEntry {
  clientAddress: string
  /** The account that acted; left out for an attempt nobody can be named for (an unknown e-mail). */
  accountId?: number
  /** That account's e-mail, kept as it is now so the line still names the person later. */
  actor?: string
  app?: string
  action: AuditAction
  detail?: string
}

export type RecordAudit = (entry: AuditEntry) => Promise<void>

/** Writes each staff action to the audit log and seals it into the evidence ledger, in one transaction. */
export function auditLog(db: Kysely<Database>, evidenceKey: Buffer): RecordAudit {
  return async (entry) => {
    // another server process may hold SQLite's write lock
    await retryWhileLocked(() => db.transaction().execute((trx) => writeAuditEntry(trx, evidenceKey, entry)))
  }
}

/**
 * One audit entry and its ledger entry, inside a transaction that also makes the change it tells of (a
 * claim's move): both are kept or neither. Resolves to the entry's id.
 */
export async function writeAuditEntry(
  trx: Transaction<Database>,
  evidenceKey: Buffer,
  { clientAddress, accountId, actor, app, action, detail }: AuditEntry,
): Promise<number> {
  const row = {
    at: new Date().toISOString(),
    client_address: clientAddress,
    app: app ?? null,
    action,
    detail: detail ?? null,
    account_id: accountId ?? null,
    actor: actor ?? null,
  }
  const { id } = await trx.insertInto('audit_log').values(row).returning('id').executeTakeFirstOrThrow()
  await appendToLedger(trx, evidenceKey, [
    {
      kind: 'audit',
      subject: subjectOf('audit', Number(id)),
      seal: sealOf(auditRecordFromRow({ ...row, id })),
    },
  ])
  return Number(id)
}

/** Who acts in a request behind requireStaff: the signed-in account, from the client's address. */
export function actorOf(
  req: Request,
  res: Response,
): Pick<AuditEntry, 'clientAddress' | 'accountId' | 'actor'> {
  const account = staffAccountOf(res)
  return { clientAddress: addressOf(req), accountId: account.id, actor: account.email }
}
