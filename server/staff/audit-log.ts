import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

export type AuditAction = 'login_success' | 'login_failure' | 'logout' | 'export' | 'screenshot_view'

/** One line of who did what from where; never a claimant's personal data. */
export async function recordAudit(
  db: Kysely<Database>,
  {
    clientAddress,
    app,
    action,
    detail,
  }: { clientAddress: string; app?: string; action: AuditAction; detail?: string },
): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      at: new Date().toISOString(),
      client_address: clientAddress,
      app: app ?? null,
      action,
      detail: detail ?? null,
    })
    .execute()
}
