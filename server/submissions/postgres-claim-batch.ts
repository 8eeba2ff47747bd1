import { CompiledQuery, sql, type Kysely, type Transaction } from 'kysely'
import { prepareByName } from '../db/create-db.ts'
import type { Database } from '../db/database.ts'
import { chainEntries, lockLedger, subjectOf, type LedgerEntry } from '../evidence/ledger.ts'
import { sealOfParts } from '../evidence/sealed-record.ts'
import {
  AGREEMENT_COLUMNS,
  CLAIM_COLUMNS,
  SCREENSHOT_REMOVED_MESSAGE,
  type ClaimToCommit,
  utf8Text,
} from './new-claim.ts'
import type { BatchWriter } from '../db/shared-transaction.ts'

/**
 * PostgreSQL: the duplicate checks asked in one turn of the event loop, answered by one query per app
 * (an index scan of claims_app_phone_unique with every phone asked). On PostgreSQL each query is a round
 * trip that costs the event loop more than the lookup costs the server, and every claim asks one.
 */
export function batchedPhoneCheck(
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
  | 'record_locale'
  | 'link_origin',
  string
> = {
  app: 'text',
  source: 'text',
  attribution: 'text',
  signals: 'text',
  created_at: 'timestamptz',
  first_name: 'text',
  last_name: 'text',
  email: 'text',
  phone_number: 'text',
  cash_advance_count: 'integer',
  membership_months: 'integer',
  screenshot_key: 'text',
  screenshot_type: 'text',
  screenshot_sha256: 'text',
  locale: 'text',
  intake_id: 'bigint',
  intake_by_link: 'integer',
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
  adopted_from: 'text',
  link_origin: 'text',
}

/**
 * PostgreSQL: a batch of claims in one statement, the claims, their signed records and their e-mail
 * copies inserted by the one statement's parts from a JSON array of the claims. One statement instead of
 * three per claim is fewer round trips and statements for the server to parse, and the counters'
 * statement trigger runs once for the batch. The inserted rows meet their records by screenshot key,
 * which is unique to each claim. Checked after it, before the commit: every screenshot still in its store.
 */
export function claimBatchWriter(
  db: Kysely<Database>,
  evidenceKey: Buffer,
): BatchWriter<ClaimToCommit, number> {
  const input = sql.raw(
    Object.entries(BATCH_COLUMNS)
      .map(([column, type]) => `${column} ${type}`)
      .concat('id bigint')
      .join(', '),
  )
  const ledgerInput = sql.raw(
    Object.entries(LEDGER_COLUMNS)
      .map(([column, type]) => `${column} ${type}`)
      .join(', '),
  )
  const ledgerColumns = sql.raw(Object.keys(LEDGER_COLUMNS).join(', '))
  // the ledger's last entry, and the batch's claim ids, read once the ledger's lock is held
  const headAndIds = sql<{ seq: string | null; hash: string | null; ids: string[] }>`
    SELECT h.seq, h.hash, n.ids
    FROM (SELECT ARRAY(SELECT nextval(pg_get_serial_sequence('claims', 'id')) FROM generate_series(1, ${0}::int)) AS ids) n
    LEFT JOIN LATERAL (SELECT seq, hash FROM evidence_ledger ORDER BY seq DESC LIMIT 1) h ON true`.compile(db)
  prepareByName(headAndIds.sql)
  const claimColumns = sql.raw(CLAIM_COLUMNS.join(', '))
  const recordColumns = AGREEMENT_COLUMNS.filter((column) => column !== 'claim_id')
  const insertedRecordColumns = sql.raw(recordColumns.join(', '))
  const selectedRecordColumns = sql.raw(
    recordColumns.map((column) => (column === 'locale' ? 'i.record_locale' : `i.${column}`)).join(', '),
  )
  const insert = sql<{ id: number }>`
    WITH i AS (
      SELECT * FROM ROWS FROM (json_to_recordset(${''}::json) AS (${input})) WITH ORDINALITY
    ), c AS (
      INSERT INTO claims (id, ${claimColumns}) SELECT id, ${claimColumns} FROM i ORDER BY ordinality
      RETURNING id
    ), r AS (
      INSERT INTO agreement_records (claim_id, ${insertedRecordColumns})
      SELECT c.id, ${selectedRecordColumns} FROM c JOIN i USING (id)
    ), q AS (
      INSERT INTO agreement_copies (claim_id, due_at, link_origin)
      SELECT c.id, ${0}::bigint, i.link_origin FROM c JOIN i USING (id)
    ), l AS (
      INSERT INTO evidence_ledger (${ledgerColumns})
      SELECT ${ledgerColumns} FROM json_to_recordset(${''}::json) AS (${ledgerInput})
    )
    SELECT id FROM c`.compile(db)
  prepareByName(insert.sql)
  return {
    async write(trx: Transaction<Database>, items: ClaimToCommit[]): Promise<number[]> {
      await lockLedger(trx)
      const {
        rows: [head],
      } = await trx.executeQuery(CompiledQuery.raw(headAndIds.sql, [items.length]) as typeof headAndIds)
      const ids = head!.ids.map(Number)
      const entries = chainEntries(
        head!.seq === null ? undefined : { seq: Number(head!.seq), hash: head!.hash! },
        items.map(({ recordParts }, i) => ({
          kind: 'claim' as const,
          subject: subjectOf('claim', ids[i]!),
          seal: sealOfParts(recordParts, ids[i]!),
        })),
        evidenceKey,
        new Date().toISOString(),
      )
      const rows = items.map(({ claim, record: { locale, ...record }, linkOrigin }, i) => ({
        ...claim,
        ...record,
        html: utf8Text(record.html),
        id: ids[i],
        record_locale: locale,
        link_origin: linkOrigin,
      }))
      const { rows: inserted } = await trx.executeQuery(
        CompiledQuery.raw(insert.sql, [
          JSON.stringify(rows),
          Date.now(),
          JSON.stringify(entries),
        ]) as typeof insert,
      )
      if (inserted.length !== items.length) throw new Error('the claim insert returned no id')
      const kept = await Promise.all(items.map((item) => item.isScreenshotKept()))
      if (kept.includes(false)) throw new Error(SCREENSHOT_REMOVED_MESSAGE)
      return ids
    },
  }
}

/** Each column of a ledger entry as the batch's JSON carries it, and its PostgreSQL type. */
const LEDGER_COLUMNS: Record<keyof LedgerEntry, string> = {
  seq: 'bigint',
  at: 'text',
  kind: 'text',
  subject: 'text',
  seal: 'text',
  seal_hmac: 'text',
  detail: 'text',
  prev_hash: 'text',
  hash: 'text',
  hmac: 'text',
}
