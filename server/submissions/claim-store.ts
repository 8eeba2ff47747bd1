import { sql, type Kysely } from 'kysely'
import { compileOnce, type QueryRunner } from '../db/compile-once.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { compileLedgerAppend, subjectOf } from '../evidence/ledger.ts'
import { sealOfParts } from '../evidence/sealed-record.ts'
import { batchedPhoneCheck, claimBatchWriter } from './postgres-claim-batch.ts'
import { inSharedBatch, inSharedTransaction } from '../db/shared-transaction.ts'
import {
  AGREEMENT_COLUMNS,
  CLAIM_COLUMNS,
  SCREENSHOT_REMOVED_MESSAGE,
  type AgreementRecordValues,
  type ClaimToCommit,
  type ClaimValues,
  utf8Text,
} from './new-claim.ts'

/**
 * Where Step 2 claims are written: the only module that writes them. How (group commits, statements
 * compiled once, PostgreSQL's batches) is its own business; a caller sees two questions.
 */
export interface ClaimStore {
  /** Whether the app already holds a claim with this phone (the stored writing, '(555) 867-5309'). */
  hasClaimForPhone(values: { app: string; phoneNumber: string }): Promise<boolean>
  /**
   * Stores the claim, its signed record, its seal in the evidence ledger and its e-mail copy all or
   * nothing; resolves with its id once committed. A phone the app already holds fails with the database's unique violation.
   */
  commitClaim(claim: ClaimToCommit): Promise<number>
}

/** `evidenceKey` makes the HMACs of each claim's ledger entry (see evidence/ledger.ts). */
export function claimStore(db: Kysely<Database>, evidenceKey: Buffer): ClaimStore {
  const statements = compileClaimStatements(db)
  if (isPostgresDb(db)) {
    // a statement is a round trip here: the claims that arrive together share their checks and writes
    const batch = claimBatchWriter(db, evidenceKey)
    return {
      hasClaimForPhone: batchedPhoneCheck(db),
      commitClaim: (toCommit) => inSharedBatch(db, batch, toCommit),
    }
  }
  const appendSeal = compileLedgerAppend(db, evidenceKey)
  return {
    hasClaimForPhone: (values) => statements.hasClaimForPhone(db, values),
    // SQLite runs a statement in microseconds and a claim's three cost less than building one batch;
    // the commit is what claims that arrive together share
    commitClaim: ({ claim, record, recordParts, linkOrigin, isScreenshotKept }) =>
      inSharedTransaction(db, async (trx) => {
        const { id } = await statements.insertClaim(trx, claim)
        await statements.insertAgreementRecord(trx, { ...record, claim_id: id })
        await appendSeal(trx, {
          kind: 'claim',
          subject: subjectOf('claim', id),
          seal: sealOfParts(recordParts, id),
        })
        await statements.queueAgreementCopy(trx, { claimId: id, linkOrigin })
        if (!(await isScreenshotKept())) throw new Error(SCREENSHOT_REMOVED_MESSAGE)
        return id
      }),
  }
}

/** A claim's statements one at a time, each compiled once for the database's dialect (see compileOnce). */
export interface ClaimStatements {
  hasClaimForPhone(runner: QueryRunner, values: { app: string; phoneNumber: string }): Promise<boolean>
  insertClaim(runner: QueryRunner, row: ClaimValues): Promise<{ id: number }>
  /** The record's `html` as UTF-8 bytes (ClaimToCommit), stored as text. */
  insertAgreementRecord(
    runner: QueryRunner,
    record: Omit<AgreementRecordValues, 'html'> & { html: Uint8Array },
  ): Promise<void>
  /** Queues the claimant's e-mail copy, due now; run it in the claim's transaction. */
  queueAgreementCopy(runner: QueryRunner, values: { claimId: number; linkOrigin: string }): Promise<void>
}

/** One slot per column, named after it. */
function slots<Column extends string>(columns: readonly Column[], slot: (name: Column) => never) {
  return Object.fromEntries(columns.map((column) => [column, slot(column)])) as Record<Column, never>
}

export function compileClaimStatements(db: Kysely<Database>): ClaimStatements {
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
  const isPostgres = isPostgresDb(db)
  const agreement = compileOnce((slot) =>
    db.insertInto('agreement_records').values({
      ...slots(AGREEMENT_COLUMNS, slot),
      // SQLite takes the bytes as they are and stores them as text (cast reinterprets, it does not convert)
      html: isPostgres ? slot('html') : sql<string>`cast(${slot('html')} as text)`,
    }),
  )
  const copy = compileOnce<'claimId' | 'dueAt' | 'linkOrigin', never>((slot) =>
    db.insertInto('agreement_copies').values({
      claim_id: slot('claimId'),
      due_at: slot('dueAt'),
      link_origin: slot('linkOrigin'),
    }),
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
      await agreement(runner, isPostgres ? { ...record, html: utf8Text(record.html) } : record)
    },
    async queueAgreementCopy(runner, { claimId, linkOrigin }) {
      await copy(runner, { claimId, dueAt: Date.now(), linkOrigin })
    },
  }
}
