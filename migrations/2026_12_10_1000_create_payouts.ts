import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Payouts (server/payouts/): from an award on a claim to the claimant paid. Money is integer cents
 * (bigint on PostgreSQL, where a campaign's sums pass 2^31).
 * - staff_account_apps.can_pay: the app's payments right (approving a payout batch).
 * - settlements: a sum the company pays for many claims, shared by a rule (equal, by cash advances).
 * - claim_awards: each claim's gross award, entered, imported or allocated from a settlement.
 * - settlement_consents: the claimant's signed Rule 1.8(g) consent to a settlement's allocation.
 * - payout_choices: how the claimant is paid (PayPal, Venmo, ACH, check); the account number sealed.
 * - tax_forms: the claimant's W-9; the taxpayer number sealed (server/payouts/sealed-numbers.ts).
 * - payout_batches, payout_items: a batch built by one account and approved by another, then sent;
 *   each item a claim's split and its payment's state. An item that failed is kept; its fallback is a
 *   new item that names it.
 * - trust_entries: every cent into and out of the firm's trust account, each sealed on the evidence
 *   chain; the reconciliation sums them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const id = postgres ? 'bigint' : 'integer'
  const time = postgres ? 'bigint' : 'integer'
  const cents = postgres ? 'bigint' : 'integer'
  const serial = postgres ? 'bigserial' : 'integer'

  await db.schema
    .alterTable('staff_account_apps')
    .addColumn('can_pay', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('settlements')
    .addColumn('id', serial, (col) => col.primaryKey())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('total_cents', cents, (col) => col.notNull())
    // 'equal' or 'cashAdvanceCount' (server/payouts/allocate-settlement.ts)
    .addColumn('rule', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('created_by', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('claim_awards')
    .addColumn('claim_id', id, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('gross_cents', cents, (col) => col.notNull())
    // 'entered', 'imported' or 'settlement'
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('settlement_id', id, (col) => col.references('settlements.id'))
    .addColumn('set_at', time, (col) => col.notNull())
    .addColumn('set_by', 'text', (col) => col.notNull())
    .execute()
  await sql`CREATE INDEX claim_awards_by_app ON claim_awards (app, claim_id)`.execute(db)
  await sql`CREATE INDEX claim_awards_by_settlement ON claim_awards (settlement_id)`.execute(db)

  await db.schema
    .createTable('settlement_consents')
    .addColumn('claim_id', id, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    .addColumn('settlement_id', id, (col) => col.notNull().references('settlements.id'))
    // the disclosure exactly as shown and signed, its SHA-256, and the signature
    .addColumn('html', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('signature_method', 'text', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('locale', 'text', (col) => col.notNull())
    .addColumn('signed_at', time, (col) => col.notNull())
    .addColumn('ip_address', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('payout_choices')
    .addColumn('claim_id', id, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    // 'paypal', 'venmo', 'ach' or 'check'
    .addColumn('method', 'text', (col) => col.notNull())
    // PayPal or Venmo: the claimant's e-mail or phone, and which it is
    .addColumn('receiver', 'text')
    .addColumn('receiver_type', 'text')
    // ACH: the routing number (a bank's public number), the account number sealed, its last four
    .addColumn('routing_number', 'text')
    .addColumn('account_sealed', 'text')
    .addColumn('account_last4', 'text')
    .addColumn('account_type', 'text')
    .addColumn('chosen_at', time, (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('tax_forms')
    .addColumn('claim_id', id, (col) => col.primaryKey().references('claims.id').onDelete('cascade'))
    .addColumn('legal_name', 'text', (col) => col.notNull())
    // 'ssn' or 'ein'; the number sealed, its last four for staff
    .addColumn('tin_type', 'text', (col) => col.notNull())
    .addColumn('tin_sealed', 'text', (col) => col.notNull())
    .addColumn('tin_last4', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('zip_code', 'text', (col) => col.notNull())
    .addColumn('signature_method', 'text', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('certified_at', time, (col) => col.notNull())
    .addColumn('ip_address', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .execute()

  await db.schema
    .createTable('payout_batches')
    .addColumn('id', serial, (col) => col.primaryKey())
    .addColumn('app', 'text', (col) => col.notNull())
    // 'built', 'approved', 'sent', 'closed'
    .addColumn('status', 'text', (col) => col.notNull())
    // case costs the firm spent on the batch as a whole, spread over its items
    .addColumn('costs_cents', cents, (col) => col.notNull().defaultTo(0))
    .addColumn('built_by', id, (col) => col.notNull().references('staff_accounts.id'))
    .addColumn('built_at', time, (col) => col.notNull())
    .addColumn('approved_by', id, (col) => col.references('staff_accounts.id'))
    .addColumn('approved_at', time)
    .addColumn('sent_at', time)
    // the send job's lease (server/jobs/lease.ts)
    .addColumn('due_at', time)
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await sql`CREATE INDEX payout_batches_by_app ON payout_batches (app, id)`.execute(db)
  await sql`CREATE INDEX payout_batches_due ON payout_batches (due_at) WHERE due_at IS NOT NULL`.execute(db)

  await db.schema
    .createTable('payout_items')
    .addColumn('id', serial, (col) => col.primaryKey())
    .addColumn('batch_id', id, (col) => col.notNull().references('payout_batches.id'))
    .addColumn('claim_id', id, (col) => col.notNull().references('claims.id'))
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('gross_cents', cents, (col) => col.notNull())
    .addColumn('fee_percent', 'text', (col) => col.notNull())
    .addColumn('fee_cents', cents, (col) => col.notNull())
    .addColumn('costs_cents', cents, (col) => col.notNull())
    .addColumn('withholding_cents', cents, (col) => col.notNull())
    .addColumn('net_cents', cents, (col) => col.notNull())
    // 'pending', 'sent', 'paid', 'failed', 'unclaimed', 'returned'
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('provider_batch_id', 'text')
    .addColumn('provider_item_id', 'text')
    .addColumn('check_number', 'integer')
    .addColumn('failure', 'text')
    // the failed item this one pays instead (a fallback to the claimant's next choice or a check)
    .addColumn('replaces_item_id', id, (col) => col.references('payout_items.id'))
    .addColumn('updated_at', time, (col) => col.notNull())
    .execute()
  await sql`CREATE INDEX payout_items_by_batch ON payout_items (batch_id, id)`.execute(db)
  await sql`CREATE INDEX payout_items_by_claim ON payout_items (claim_id)`.execute(db)
  await sql`CREATE UNIQUE INDEX payout_items_by_provider ON payout_items (provider_item_id)`.execute(db)

  await db.schema
    .createTable('trust_entries')
    .addColumn('id', serial, (col) => col.primaryKey())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('batch_id', id, (col) => col.references('payout_batches.id'))
    .addColumn('claim_id', id, (col) => col.references('claims.id'))
    // 'received' (into trust), 'fee', 'costs', 'withholding', 'net' (out), 'returned' (back in)
    .addColumn('kind', 'text', (col) => col.notNull())
    // + into the trust account, - out of it
    .addColumn('amount_cents', cents, (col) => col.notNull())
    .addColumn('at', time, (col) => col.notNull())
    .execute()
  await sql`CREATE INDEX trust_entries_by_batch ON trust_entries (batch_id, id)`.execute(db)
  await sql`CREATE INDEX trust_entries_by_app ON trust_entries (app, id)`.execute(db)
  await sql`CREATE INDEX trust_entries_by_claim ON trust_entries (claim_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'trust_entries',
    'payout_items',
    'payout_batches',
    'tax_forms',
    'payout_choices',
    'settlement_consents',
    'claim_awards',
    'settlements',
  ]) {
    await db.schema.dropTable(table).execute()
  }
  await db.schema.alterTable('staff_account_apps').dropColumn('can_pay').execute()
}
