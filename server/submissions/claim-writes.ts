import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely'
import type { NewAgreementRecord } from '../agreements/agreement-record.repository.ts'
import { compileOnce, type QueryRunner } from '../db/compile-once.ts'
import { prepareByName } from '../db/create-db.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { inSharedBatch, inSharedTransaction, type BatchWriter } from '../db/shared-transaction.ts'
import type { NewClaimRow } from './claim.repository.ts'

export type ClaimValues = Required<Omit<NewClaimRow, 'id' | 'legal_hold'>>
export type AgreementRecordValues = Required<Omit<NewAgreementRecord, 'id'>>

/** A claim as it commits: its row, its signed record and, when there is an agreement, its e-mail copy. */
export interface ClaimToCommit {
  claim: ClaimValues
  record: Omit<AgreementRecordValues, 'claim_id'>
  /** Whether the claimant's e-mail copy is queued (sent by agreement-copies.ts, due now). */
  isCopyQueued: boolean
  /**
   * Whether the claim's screenshot is still in its store, asked after the claim's insert and before its
   * commit: another process's start-up sweep (removeOrphanScreenshots) holds claim inserts off while it
   * removes files, so a file it has already removed is caught here and the claim refused rather than
   * kept without its screenshot.
   */
  isScreenshotKept: () => Promise<boolean>
}

export const SCREENSHOT_REMOVED_MESSAGE = 'the screenshot was removed before its claim committed'

/** The statements a claim writes, each compiled once for the database's dialect (see compileOnce). */
export interface ClaimWrites {
  hasClaimForPhone(runner: QueryRunner, values: { app: string; phoneNumber: string }): Promise<boolean>
  insertClaim(runner: QueryRunner, row: ClaimValues): Promise<{ id: number }>
  insertAgreementRecord(runner: QueryRunner, record: AgreementRecordValues): Promise<void>
  /**
   * Queues the claimant's e-mail copy (sent by agreement-copies.ts), due now; run it in the claim's
   * transaction, so the copy exists if the claim does.
   */
  queueAgreementCopy(runner: QueryRunner, values: { claimId: number }): Promise<void>
  /**
   * Stores the claim, its signed record and its e-mail copy all or nothing, committed together with the
   * claims that arrive alongside it (group commit); resolves with its id once committed.
   */
  commitClaim(db: Kysely<Database>, claim: ClaimToCommit): Promise<number>
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
  const writes: Omit<ClaimWrites, 'commitClaim'> = {
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
  if (isPostgresDb(db)) {
    const batch = claimBatchWriter(db)
    const hasClaimsForPhones = batchedPhoneCheck(db)
    return {
      ...writes,
      hasClaimForPhone: (runner, values) =>
        runner === db ? hasClaimsForPhones(values) : writes.hasClaimForPhone(runner, values),
      commitClaim: (db, toCommit) => inSharedBatch(db, batch, toCommit),
    }
  }
  return {
    ...writes,
    // SQLite runs a statement in microseconds and a claim's three cost less than building one batch
    commitClaim: (db, { claim, record, isCopyQueued, isScreenshotKept }) =>
      inSharedTransaction(db, async (trx) => {
        const { id } = await writes.insertClaim(trx, claim)
        await writes.insertAgreementRecord(trx, { ...record, claim_id: id })
        if (isCopyQueued) await writes.queueAgreementCopy(trx, { claimId: id })
        if (!(await isScreenshotKept())) throw new Error(SCREENSHOT_REMOVED_MESSAGE)
        return id
      }),
  }
}

/**
 * PostgreSQL: the duplicate checks asked in one turn of the event loop, answered by one query per app
 * (an index scan of claims_app_phone_unique with every phone asked). On PostgreSQL each query is a round
 * trip that costs the event loop more than the lookup costs the server, and every claim asks one.
 */
function batchedPhoneCheck(
  db: Kysely<Database>,
): (values: { app: string; phoneNumber: string }) => Promise<boolean> {
  interface Asked {
    app: string
    phoneNumber: string
    resolve: (isTaken: boolean) => void
    reject: (error: unknown) => void
  }
  let waiting: Asked[] | undefined
  const byPhones = sql<{ phone_number: string }>`
    SELECT phone_number FROM claims WHERE app = ${''} AND phone_number = ANY(${[]}::text[])`.compile(db)
  prepareByName(byPhones.sql)
  const answer = async (asked: Asked[]) => {
    const byApp = new Map<string, Asked[]>()
    for (const question of asked) {
      const questions = byApp.get(question.app)
      if (questions) questions.push(question)
      else byApp.set(question.app, [question])
    }
    for (const [app, questions] of byApp) {
      try {
        const phones = [...new Set(questions.map((question) => question.phoneNumber))]
        const { rows } = await db.executeQuery(
          CompiledQuery.raw(byPhones.sql, [app, phones]) as typeof byPhones,
        )
        const taken = new Set(rows.map((row) => row.phone_number))
        for (const question of questions) question.resolve(taken.has(question.phoneNumber))
      } catch (error) {
        for (const question of questions) question.reject(error)
      }
    }
  }
  return ({ app, phoneNumber }) =>
    new Promise<boolean>((resolve, reject) => {
      if (!waiting) {
        const asked: Asked[] = (waiting = [])
        setImmediate(() => {
          waiting = undefined
          void answer(asked)
        })
      }
      waiting.push({ app, phoneNumber, resolve, reject })
    })
}

/** Each column of the batch's JSON input and its PostgreSQL type. */
const BATCH_COLUMNS: Record<
  | (typeof CLAIM_COLUMNS)[number]
  | Exclude<(typeof AGREEMENT_COLUMNS)[number], 'claim_id' | 'locale'>
  | 'record_locale',
  string
> = {
  app: 'text',
  created_at: 'timestamptz',
  first_name: 'text',
  last_name: 'text',
  email: 'text',
  phone_number: 'text',
  cash_advance_count: 'integer',
  membership_months: 'integer',
  screenshot_key: 'text',
  screenshot_type: 'text',
  locale: 'text',
  template: 'text',
  template_version: 'text',
  html: 'text',
  sha256: 'text',
  signature: 'text',
  signed_at: 'timestamptz',
  ip_address: 'text',
  user_agent: 'text',
  consent_text: 'text',
  record_locale: 'text',
  signature_method: 'text',
  typed_signature: 'text',
}

/**
 * PostgreSQL: a batch of claims in one statement, the claims, their signed records and their e-mail
 * copies inserted by the one statement's parts from a JSON array of the claims. One statement instead of
 * three per claim is fewer round trips and statements for the server to parse, and the counters'
 * statement trigger runs once for the batch. The inserted rows meet their records by screenshot key,
 * which is unique to each claim. Checked after it, before the commit: every screenshot still in its store.
 */
function claimBatchWriter(db: Kysely<Database>): BatchWriter<ClaimToCommit, number> {
  const input = sql.raw(
    Object.entries(BATCH_COLUMNS)
      .map(([column, type]) => `${column} ${type}`)
      .concat('queue_copy boolean')
      .join(', '),
  )
  const claimColumns = sql.raw(CLAIM_COLUMNS.join(', '))
  const recordColumns = AGREEMENT_COLUMNS.filter((column) => column !== 'claim_id')
  const insertedRecordColumns = sql.raw(recordColumns.join(', '))
  const selectedRecordColumns = sql.raw(
    recordColumns.map((column) => (column === 'locale' ? 'i.record_locale' : `i.${column}`)).join(', '),
  )
  const insert = sql<{ id: number; screenshot_key: string }>`
    WITH i AS (
      SELECT * FROM ROWS FROM (json_to_recordset(${''}::json) AS (${input})) WITH ORDINALITY
    ), c AS (
      INSERT INTO claims (${claimColumns}) SELECT ${claimColumns} FROM i ORDER BY ordinality
      RETURNING id, screenshot_key
    ), r AS (
      INSERT INTO agreement_records (claim_id, ${insertedRecordColumns})
      SELECT c.id, ${selectedRecordColumns} FROM c JOIN i USING (screenshot_key)
    ), q AS (
      INSERT INTO agreement_copies (claim_id, due_at)
      SELECT c.id, ${0}::bigint FROM c JOIN i USING (screenshot_key) WHERE i.queue_copy
    )
    SELECT id, screenshot_key FROM c`.compile(db)
  prepareByName(insert.sql)
  return {
    async write(trx: Transaction<Database>, items: ClaimToCommit[]): Promise<number[]> {
      const rows = items.map(({ claim, record: { locale, ...record }, isCopyQueued }) => ({
        ...claim,
        ...record,
        record_locale: locale,
        queue_copy: isCopyQueued,
      }))
      const { rows: inserted } = await trx.executeQuery(
        CompiledQuery.raw(insert.sql, [JSON.stringify(rows), Date.now()]) as typeof insert,
      )
      const ids = new Map(inserted.map((row) => [row.screenshot_key, Number(row.id)]))
      const kept = await Promise.all(items.map((item) => item.isScreenshotKept()))
      if (kept.includes(false)) throw new Error(SCREENSHOT_REMOVED_MESSAGE)
      return items.map(({ claim }) => {
        const id = ids.get(claim.screenshot_key)
        if (id === undefined) throw new Error('the claim insert returned no id')
        return id
      })
    },
  }
}
