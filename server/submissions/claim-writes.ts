import type { Kysely } from 'kysely'
import type { NewAgreementRecord } from '../agreements/agreement-record.repository.ts'
import { compileOnce, type QueryRunner } from '../db/compile-once.ts'
import type { Database } from '../db/database.ts'
import type { NewClaimRow } from './claim.repository.ts'

/** The statements a claim writes, each compiled once for the database's dialect (see compileOnce). */
export interface ClaimWrites {
  hasClaimForPhone(runner: QueryRunner, values: { app: string; phoneNumber: string }): Promise<boolean>
  insertClaim(
    runner: QueryRunner,
    row: Required<Omit<NewClaimRow, 'id' | 'legal_hold'>>,
  ): Promise<{ id: number }>
  insertAgreementRecord(runner: QueryRunner, record: Required<Omit<NewAgreementRecord, 'id'>>): Promise<void>
  /**
   * Queues the claimant's e-mail copy (sent by agreement-copies.ts), due now; run it in the claim's
   * transaction, so the copy exists if the claim does.
   */
  queueAgreementCopy(runner: QueryRunner, values: { claimId: number }): Promise<void>
}

const CLAIM_COLUMNS = [
  'app',
  'created_at',
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'cash_advance_count',
  'membership_months',
  'screenshot_key',
  'screenshot_type',
  'locale',
] as const
const AGREEMENT_COLUMNS = [
  'claim_id',
  'template',
  'template_version',
  'html',
  'sha256',
  'signature',
  'signed_at',
  'ip_address',
  'user_agent',
  'consent_text',
  'locale',
  'signature_method',
  'typed_signature',
] as const

/** One slot per column, named after it. */
function slots<Column extends string>(columns: readonly Column[], slot: (name: Column) => never) {
  return Object.fromEntries(columns.map((column) => [column, slot(column)])) as Record<Column, never>
}

export function compileClaimWrites(db: Kysely<Database>): ClaimWrites {
  const byPhone = compileOnce<'app' | 'phoneNumber', { id: number }>((slot) =>
    db
      .selectFrom('claims')
      .select('id')
      .where('app', '=', slot('app'))
      .where('phone_number', '=', slot('phoneNumber')),
  )
  const claim = compileOnce((slot) =>
    db.insertInto('claims').values(slots(CLAIM_COLUMNS, slot)).returning('id'),
  )
  const agreement = compileOnce((slot) =>
    db.insertInto('agreement_records').values(slots(AGREEMENT_COLUMNS, slot)),
  )
  const copy = compileOnce<'claimId' | 'dueAt', never>((slot) =>
    db.insertInto('agreement_copies').values({ claim_id: slot('claimId'), due_at: slot('dueAt') }),
  )
  return {
    async hasClaimForPhone(runner, values) {
      return (await byPhone(runner, values)).rows.length > 0
    },
    async insertClaim(runner, row) {
      const [inserted] = (await claim(runner, row)).rows
      if (!inserted) throw new Error('the claim insert returned no id')
      return { id: Number(inserted.id) }
    },
    async insertAgreementRecord(runner, record) {
      await agreement(runner, record)
    },
    async queueAgreementCopy(runner, { claimId }) {
      await copy(runner, { claimId, dueAt: Date.now() })
    },
  }
}
