import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'
import { auditRecordFromRow, sealOf } from '../evidence/sealed-record.ts'

export type AuditAction =
  'login_success' | 'login_failure' | 'logout' | 'export' | 'screenshot_view' | 'evidence_download'

/** One line of who did what from where; never a claimant's personal data. */
export interface AuditEntry {
  clientAddress: string
  app?: string
  action: AuditAction
  detail?: string
}

export type RecordAudit = (entry: AuditEntry) => Promise<void>

/** Writes each staff action to the audit log and seals it into the evidence ledger, in one transaction. */
export function auditLog(db: Kysely<Database>, evidenceKey: Buffer): RecordAudit {
  return ({ clientAddress, app, action, detail }) =>
    // another server process may hold SQLite's write lock
    retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const row = {
          at: new Date().toISOString(),
          client_address: clientAddress,
          app: app ?? null,
          action,
          detail: detail ?? null,
        }
        const { id } = await trx.insertInto('audit_log').values(row).returning('id').executeTakeFirstOrThrow()
        await appendToLedger(trx, evidenceKey, [
          {
            kind: 'audit',
            subject: subjectOf('audit', Number(id)),
            seal: sealOf(auditRecordFromRow({ ...row, id })),
          },
        ])
      }),
    )
}
