import crypto from 'node:crypto'
import { sql, type Kysely, type Transaction } from 'kysely'
import { compileOnce, type QueryRunner } from '../db/compile-once.ts'
import type { Database, EvidenceLedgerTable } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { canonicalJson } from './canonical-json.ts'
import { keyedDigest } from './evidence-key.ts'
import { sha256Hex } from '../platform/token-hash.ts'

/**
 * What an entry records: a signing sealed, a staff action, a claimant's confirmation from the e-mail's
 * link (its subject is the claim's), a claimant's amendment curing a claim (its own subject, its detail
 * naming the record it amends), a purge (the tombstone of a removed record), or a legal hold set on
 * or lifted from a claim or intake (legal-hold.ts; its seal is the held record's), or a movement of
 * money into or out of the firm's trust account (server/payouts/trust-ledger.ts), or a claimant's
 * signed consent to a settlement's allocation (server/payouts/settlement-consent.ts), or a claimant's
 * signed W-9, its taxpayer number sealed (server/payouts/tax-form-seal.ts).
 */
export type LedgerKind =
  | 'claim'
  | 'intake'
  | 'audit'
  | 'confirmation'
  | 'amendment'
  | 'purge'
  | 'legal_hold_set'
  | 'legal_hold_lifted'
  | 'trust'
  | 'consent'
  | 'tax_form'

export const LEGAL_HOLD_KINDS = ['legal_hold_set', 'legal_hold_lifted'] as const

/** An entry before it is chained. */
export interface LedgerInput {
  kind: LedgerKind
  /** What it is about: 'claim:1234', 'intake:56', 'audit:78'. */
  subject: string
  /** The SHA-256 of the record it seals (for a purge: the removed record's seal). */
  seal: string
  /** Words about it that are no one's personal data (a purge's reason); canonical JSON. */
  detail?: Record<string, string | number>
}

export type LedgerEntry = EvidenceLedgerTable

/** The hash before the first entry. */
export const GENESIS_HASH = '0'.repeat(64)
/** PostgreSQL: the transaction-scoped advisory lock that makes appends to the one chain take turns. */
const LEDGER_LOCK = 5_170_213_901

export function subjectOf(kind: 'claim' | 'intake' | 'audit' | 'amendment', id: number): string {
  return `${kind}:${id}`
}

/**
 * The entries of the given kinds about these claims or intakes, oldest first, each with the record's id
 * (purge and legal holds read a page of records' seals and holds this way).
 */
export async function entriesAbout(
  db: Kysely<Database> | Transaction<Database>,
  {
    subject,
    ids,
    kinds,
  }: { subject: 'claim' | 'intake'; ids: readonly number[]; kinds: readonly LedgerKind[] },
): Promise<{ id: number; entry: LedgerEntry }[]> {
  if (ids.length === 0) return []
  const entries = await db
    .selectFrom('evidence_ledger')
    .selectAll()
    .where(
      'subject',
      'in',
      ids.map((id) => subjectOf(subject, id)),
    )
    .where('kind', 'in', kinds)
    .orderBy('seq')
    .execute()
  return entries.map((entry) => ({ id: Number(entry.subject.slice(subject.length + 1)), entry }))
}

/** The text an entry's hash is the SHA-256 of: every column but the hash and HMACs, canonical. */
export function entryText(entry: Omit<LedgerEntry, 'hash' | 'hmac' | 'seal_hmac'>): string {
  return canonicalJson({
    seq: Number(entry.seq),
    at: entry.at,
    kind: entry.kind,
    subject: entry.subject,
    seal: entry.seal,
    detail: entry.detail,
    prev: entry.prev_hash,
  })
}

/**
 * Whether an entry is as it was appended: its hash is its text's, and both HMACs are the evidence key's.
 * Whoever can write the database but lacks the key cannot make a changed or made-up entry pass.
 */
export function isAuthenticEntry(entry: LedgerEntry, key: Buffer): boolean {
  return (
    sha256Hex(entryText(entry)) === entry.hash &&
    sameHex(keyedDigest(key, entry.hash), entry.hmac) &&
    sameHex(keyedDigest(key, entry.seal), entry.seal_hmac)
  )
}

export function sameHex(a: string, b: string): boolean {
  return a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b))
}

/** The entries that follow `head`, each covering the previous one's hash. */
export function chainEntries(
  head: { seq: number; hash: string } | undefined,
  inputs: readonly LedgerInput[],
  key: Buffer,
  at: string,
): LedgerEntry[] {
  let seq = head?.seq ?? 0
  let prev = head?.hash ?? GENESIS_HASH
  return inputs.map(({ kind, subject, seal, detail }) => {
    seq += 1
    const unsigned = {
      seq,
      at,
      kind,
      subject,
      seal,
      detail: canonicalJson(detail ?? {}),
      prev_hash: prev,
    }
    const hash = sha256Hex(entryText(unsigned))
    prev = hash
    return { ...unsigned, seal_hmac: keyedDigest(key, seal), hash, hmac: keyedDigest(key, hash) }
  })
}

/**
 * The last entry of the chain, read inside the transaction that appends: on PostgreSQL after taking the
 * ledger's lock (held to the commit), on SQLite under the write lock the transaction holds once it has
 * written, so two appends never follow the same entry.
 */
export async function ledgerHead(
  trx: Transaction<Database>,
): Promise<{ seq: number; hash: string } | undefined> {
  if (isPostgresDb<Database>(trx)) await lockLedger(trx)
  const row = await trx
    .selectFrom('evidence_ledger')
    .select(['seq', 'hash'])
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row && { seq: Number(row.seq), hash: row.hash }
}

/** PostgreSQL: waits for the ledger's lock, held until the transaction ends; read the head after it. */
export async function lockLedger(trx: Transaction<Database>): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${LEDGER_LOCK})`.execute(trx)
}

/** Appends entries in the caller's transaction: they commit with the rows they seal, or not at all. */
export async function appendToLedger(
  trx: Transaction<Database>,
  key: Buffer,
  inputs: readonly LedgerInput[],
): Promise<void> {
  if (inputs.length === 0) return
  const entries = chainEntries(await ledgerHead(trx), inputs, key, new Date().toISOString())
  // a statement takes at most 65,535 parameters, ten an entry
  for (let start = 0; start < entries.length; start += 1000) {
    await trx
      .insertInto('evidence_ledger')
      .values(entries.slice(start, start + 1000))
      .execute()
  }
}

/**
 * SQLite: appends one entry at a time with statements compiled once for `db` (see compileOnce), for
 * the claim path, where building the two queries anew cost more than running them.
 */
export function compileLedgerAppend(
  db: Kysely<Database>,
  key: Buffer,
): (runner: QueryRunner, input: LedgerInput) => Promise<void> {
  const head = compileOnce<never, { seq: number; hash: string }>(() =>
    db.selectFrom('evidence_ledger').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1),
  )
  const insert = compileOnce<keyof LedgerEntry, never>((slot) =>
    db.insertInto('evidence_ledger').values({
      seq: slot('seq'),
      at: slot('at'),
      kind: slot('kind'),
      subject: slot('subject'),
      seal: slot('seal'),
      seal_hmac: slot('seal_hmac'),
      detail: slot('detail'),
      prev_hash: slot('prev_hash'),
      hash: slot('hash'),
      hmac: slot('hmac'),
    }),
  )
  // the last entry each transaction appended: the claims that commit together follow one another
  // without asking again (no other writer can append while the transaction holds the write lock)
  const appended = new WeakMap<QueryRunner, { seq: number; hash: string }>()
  return async (runner, input) => {
    let last = appended.get(runner)
    if (!last) {
      const [row] = (await head(runner, {})).rows
      last = row && { seq: Number(row.seq), hash: row.hash }
    }
    const [entry] = chainEntries(last, [input], key, new Date().toISOString())
    await insert(runner, entry!)
    appended.set(runner, { seq: entry!.seq, hash: entry!.hash })
  }
}
