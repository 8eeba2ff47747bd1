import crypto from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../db/database.ts'
import { keysetPages, EXPORT_PAGE_SIZE } from '../db/keyset-pages.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { keyedDigest } from '../evidence/evidence-key.ts'
import { clearanceProblem } from '../fraud/fraud-clearance.ts'
import { sha256Hex } from '../platform/token-hash.ts'
import { verifyTrustEntries } from '../payouts/verify-trust-entries.ts'
import { anchorProblem, readAnchor } from '../evidence/ledger-anchor.ts'
import { consentSeal, consentSubject } from '../payouts/settlement-consent.ts'
import { taxFormSubject } from '../payouts/tax-form-seal.ts'
import { verifyTaxForms } from '../payouts/verify-tax-forms.ts'
import { entryText, GENESIS_HASH, LEGAL_HOLD_KINDS, sameHex, subjectOf } from '../evidence/ledger.ts'
import {
  amendmentRecordFromRow,
  auditRecordFromRow,
  claimRecordFromRows,
  confirmationRecordFromRow,
  intakeRecordFromRow,
  sealOf,
  type ConfirmationRecord,
} from '../evidence/sealed-record.ts'

export interface EvidenceReport {
  ledgerEntries: number
  claims: number
  /** Claimants' amendments curing their claims, each checked as a claim is. */
  amendments: number
  intakes: number
  auditEntries: number
  /** Claims a decider cleared of their fraud hold, each clearance checked against its sealed audit entry. */
  fraudClearances: number
  /** The trust account's entries, each against its seal; and each app's payouts reconciled to 0 cents. */
  trustEntries: number
  /** Claimants' signed W-9s, each against its seal. */
  taxForms: number
  purged: number
  /** One line per failure, naming the claim, intake, audit entry or ledger entry and why. */
  problems: string[]
}

/** How many problems are named one by one; past that they are counted. */
const MAX_NAMED_PROBLEMS = 1000

/**
 * Recomputes every link, hash and HMAC of the evidence ledger, every claim's, intake's and staff
 * action's seal from their rows, and every stored screenshot's SHA-256, and names what fails and why.
 * A claim cleared of its fraud hold must hold the clearance its 'fraud_cleared' audit entry sealed; a
 * settlement consent and a W-9 each the seal of their own subject.
 * With `dataDir`, the chain must also reach the head anchored beside the key, with the same hash there
 * (newest entries removed with their rows leave no gap in the chain). With `claimId`, the whole chain
 * and that claim only. Nothing is written.
 */
export async function verifyEvidence({
  db,
  storage,
  evidenceKey,
  claimId,
  dataDir,
  onProgress = () => undefined,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  evidenceKey: Buffer
  claimId?: number
  /** DATA_DIR: the chain must reach the head anchored in its head file (ledger-anchor.ts). */
  dataDir?: string
  /** Called now and then with what has been checked so far. */
  onProgress?: (line: string) => void
}): Promise<EvidenceReport> {
  const problems: string[] = []
  let unnamed = 0
  const problem = (line: string) => {
    if (problems.length < MAX_NAMED_PROBLEMS) problems.push(line)
    else unnamed += 1
  }
  // with a claim, its amendments and the audit entry of its fraud clearance too: their subjects are their own
  const only =
    claimId === undefined
      ? undefined
      : new Set([
          subjectOf('claim', claimId),
          ...(
            await db.selectFrom('claim_amendments').select('id').where('claim_id', '=', claimId).execute()
          ).map(({ id }) => subjectOf('amendment', Number(id))),
          ...(
            await db
              .selectFrom('fraud_scores')
              .select('cleared_audit_id')
              .where('claim_id', '=', claimId)
              .where('cleared_audit_id', 'is not', null)
              .execute()
          ).map(({ cleared_audit_id }) => subjectOf('audit', Number(cleared_audit_id))),
          consentSubject(claimId),
          taxFormSubject(claimId),
        ])
  const anchor = dataDir === undefined ? ({ kind: 'none' } as const) : readAnchor(dataDir, evidenceKey)
  if (anchor.kind === 'unreadable') problem(anchor.problem)
  const anchorSeq = anchor.kind === 'anchored' ? anchor.head.seq : undefined
  const ledger = await checkLedger(db, evidenceKey, { only, anchorSeq, problem, onProgress })
  if (anchor.kind === 'anchored') {
    const anchored = anchorProblem(anchor.head, ledger.lastSeq, ledger.hashAtAnchor)
    if (anchored) problem(anchored)
  }

  /** A claimant's confirmation on the row must be the one the ledger sealed, and the other way round. */
  const checkConfirmation = (name: string, subject: string, confirmation: ConfirmationRecord | undefined) => {
    const confirmationSeal = ledger.confirmations.get(subject)
    if (confirmation === undefined && confirmationSeal !== undefined) {
      problem(`${name}: confirmation sealed in the ledger but missing from the ${subject.split(':')[0]}`)
    } else if (confirmation !== undefined && confirmationSeal === undefined) {
      problem(`${name}: confirmed, but no confirmation in the ledger`)
    } else if (confirmation !== undefined && sealOf(confirmation) !== confirmationSeal) {
      problem(`${name}: confirmation differs from the one sealed (it was changed)`)
    }
  }
  /**
   * Each cleared claim's clearance against the audit entry that sealed it; with a claim, that entry's
   * own seal too (the walk of every audit entry checks it otherwise).
   */
  let fraudClearances = 0
  const checkClearances = async (page: Awaited<ReturnType<typeof claimPagesQuery>>) => {
    const cleared = page.filter((row) => row.fraud_cleared_at !== null)
    if (cleared.length === 0) return
    fraudClearances += cleared.length
    const ids = cleared.flatMap((row) =>
      row.cleared_audit_id === null ? [] : [Number(row.cleared_audit_id)],
    )
    const audits = new Map(
      (ids.length === 0
        ? []
        : await db.selectFrom('audit_log').selectAll().where('id', 'in', ids).execute()
      ).map((audit) => [Number(audit.id), audit]),
    )
    for (const row of cleared) {
      const audit = row.cleared_audit_id === null ? undefined : audits.get(Number(row.cleared_audit_id))
      const wrong = clearanceProblem({ ...row, id: Number(row.id) }, audit)
      if (wrong) problem(wrong)
      if (!audit || claimId === undefined) continue
      const subject = subjectOf('audit', Number(audit.id))
      ledger.seen.add(subject)
      const sealed = ledger.seals.get(subject)
      if (sealed === undefined) problem(`audit entry ${audit.id}: no seal in the ledger`)
      else if (sealOf(auditRecordFromRow(audit)) !== sealed) {
        problem(`audit entry ${audit.id}: sealed record differs (it was changed)`)
      }
    }
  }
  let claims = 0
  for await (const page of claimPages(db, claimId)) {
    const hashes = await screenshotHashes(storage, page)
    await checkClearances(page)
    for (const row of page) {
      claims += 1
      const subject = subjectOf('claim', Number(row.id))
      ledger.seen.add(subject)
      const name = `claim ${row.id}`
      const fileHash = hashes.get(row.screenshot_key)
      if (fileHash === undefined) problem(`${name}: screenshot missing from the store`)
      else if (fileHash !== row.screenshot_sha256) problem(`${name}: screenshot hash differs`)
      const sealed = ledger.seals.get(subject)
      if (row.template === null) problem(`${name}: signed record missing`)
      else if (sealed === undefined) problem(`${name}: no seal in the ledger`)
      else if (sealOf(claimRecordFromRows(row, signedRecordOf(row))) !== sealed) {
        problem(`${name}: sealed record differs (the claim or its signed record was changed)`)
      }
      // the column is a cache of the ledger's hold: cleared by hand, it would mislead whoever reads it
      if (ledger.held.get(subject) === true && Number(row.legal_hold) !== 1) {
        problem(
          `${name}: on legal hold in the ledger, but its legal_hold column says ${Number(row.legal_hold)}`,
        )
      }
      checkConfirmation(name, subject, confirmationRecordFromRow({ ...row, id: Number(row.id) }))
    }
    onProgress(`${claims.toLocaleString('en-US')} claims checked`)
  }

  let amendments = 0
  for await (const page of amendmentPages(db, claimId)) {
    const hashes = await screenshotHashes(
      storage,
      page.flatMap((row) => (row.screenshot_key === null ? [] : [{ screenshot_key: row.screenshot_key }])),
    )
    for (const row of page) {
      amendments += 1
      const subject = subjectOf('amendment', Number(row.id))
      ledger.seen.add(subject)
      const name = `amendment ${row.id} of claim ${row.claim_id}`
      if (row.screenshot_key !== null) {
        const fileHash = hashes.get(row.screenshot_key)
        if (fileHash === undefined) problem(`${name}: screenshot missing from the store`)
        else if (fileHash !== row.screenshot_sha256) problem(`${name}: screenshot hash differs`)
      }
      const sealed = ledger.seals.get(subject)
      if (sealed === undefined) problem(`${name}: no seal in the ledger`)
      else if (sealOf(amendmentRecordFromRow(row)) !== sealed) {
        problem(`${name}: sealed record differs (the amendment was changed)`)
      }
      // the record it amends must be the one the ledger sealed, whether or not the walk was limited
      const amended = subjectOf(row.amends_kind, Number(row.amends_id))
      const amendedSeal = ledger.seals.get(amended)
      if (amendedSeal !== undefined && amendedSeal !== row.amends_seal) {
        problem(`${name}: names ${amended} with a seal the ledger does not hold`)
      }
    }
  }

  // a settlement consent is sealed under its own subject (kind 'consent'), its row checked like a claim's
  for await (const page of consentPages(db, claimId)) {
    for (const row of page) {
      const subject = consentSubject(Number(row.claim_id))
      ledger.seen.add(subject)
      const name = `settlement consent of claim ${row.claim_id}`
      const sealed = ledger.seals.get(subject)
      if (sealed === undefined) problem(`${name}: no seal in the ledger`)
      else if (consentSeal(row) !== sealed) problem(`${name}: sealed record differs (it was changed)`)
      else if (sha256Hex(row.html) !== row.sha256) problem(`${name}: its text's SHA-256 differs`)
    }
  }

  // a W-9 likewise (kind 'tax_form'), its taxpayer number sealed in the row and in the seal
  const taxForms = await verifyTaxForms({ db, claimId, seals: ledger.seals, seen: ledger.seen, problem })

  let intakes = 0
  let auditEntries = 0
  let trustEntries = 0
  if (claimId === undefined) {
    trustEntries = await verifyTrustEntries({ db, seals: ledger.seals, seen: ledger.seen, problem })
    const check = (name: string, subject: string, seal: string) => {
      ledger.seen.add(subject)
      const sealed = ledger.seals.get(subject)
      if (sealed === undefined) problem(`${name}: no seal in the ledger`)
      else if (seal !== sealed) problem(`${name}: sealed record differs (it was changed)`)
    }
    for await (const page of allRows(db, 'form_submissions')) {
      for (const row of page) {
        intakes += 1
        const subject = subjectOf('intake', Number(row.id))
        check(`intake ${row.id}`, subject, sealOf(intakeRecordFromRow(row)))
        checkConfirmation(`intake ${row.id}`, subject, confirmationRecordFromRow(row, 'intake'))
      }
    }
    for await (const page of allRows(db, 'audit_log')) {
      for (const row of page) {
        auditEntries += 1
        check(`audit entry ${row.id}`, subjectOf('audit', Number(row.id)), sealOf(auditRecordFromRow(row)))
      }
    }
  }
  // what the ledger sealed must still be there, unless a purge entry says why it is not
  for (const [subject, seal] of ledger.seals) {
    if (ledger.seen.has(subject) || ledger.purged.has(subject) || seal === '') continue
    const [kind, id] = subject.split(':')
    problem(
      `${kind === 'audit' ? 'audit entry' : kind} ${id}: missing from the database, and no purge entry says why`,
    )
  }
  if (unnamed > 0) problems.push(`… and ${unnamed.toLocaleString('en-US')} more problems`)
  return {
    ledgerEntries: ledger.entries,
    claims,
    amendments,
    intakes,
    auditEntries,
    fraudClearances,
    trustEntries,
    taxForms,
    purged: ledger.purged.size,
    problems,
  }
}

/** Walks the chain in order: no gap, each entry covering the one before, each hash and HMAC its own. */
async function checkLedger(
  db: Kysely<Database>,
  evidenceKey: Buffer,
  {
    only,
    anchorSeq,
    problem,
    onProgress,
  }: {
    only: ReadonlySet<string> | undefined
    anchorSeq: number | undefined
    problem: (line: string) => void
    onProgress: (line: string) => void
  },
) {
  let hashAtAnchor: string | undefined
  let lastSeq = 0
  const seals = new Map<string, string>()
  // a claimant's confirmation, under the claim's subject beside the claim's own seal
  const confirmations = new Map<string, string>()
  const purged = new Set<string>()
  // each record's legal hold as its last hold entry says (legal-hold.ts)
  const held = new Map<string, boolean>()
  let entries = 0
  let expectedSeq = 1
  let prev = GENESIS_HASH
  for (let afterSeq = 0; ;) {
    const page = await db
      .selectFrom('evidence_ledger')
      .selectAll()
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(EXPORT_PAGE_SIZE)
      .execute()
    for (const entry of page) {
      entries += 1
      const seq = Number(entry.seq)
      const name = `ledger entry ${seq}`
      if (seq !== expectedSeq) {
        problem(
          `${name}: chain broken (entr${seq - expectedSeq === 1 ? 'y' : 'ies'} ${expectedSeq}${seq - expectedSeq === 1 ? '' : `-${seq - 1}`} missing)`,
        )
      } else if (entry.prev_hash !== prev) {
        problem(`${name}: chain broken (it does not follow entry ${seq - 1})`)
      }
      if (sha256Hex(entryText(entry)) !== entry.hash) problem(`${name}: hash differs (the entry was changed)`)
      else if (!sameHex(keyedDigest(evidenceKey, entry.hash), entry.hmac)) {
        problem(`${name}: HMAC does not match the evidence key`)
      }
      if (!sameHex(keyedDigest(evidenceKey, entry.seal), entry.seal_hmac)) {
        problem(`${name}: seal HMAC does not match the evidence key`)
      }
      if (only === undefined || only.has(entry.subject)) {
        if (entry.kind === 'purge') purged.add(entry.subject)
        else if ((LEGAL_HOLD_KINDS as readonly string[]).includes(entry.kind)) {
          // a hold seals nothing of its own: it names the record it holds and that record's seal
          held.set(entry.subject, entry.kind === 'legal_hold_set')
        } else if (entry.kind === 'confirmation') confirmations.set(entry.subject, entry.seal)
        else seals.set(entry.subject, entry.seal)
      }
      if (seq === anchorSeq) hashAtAnchor = entry.hash
      lastSeq = seq
      expectedSeq = seq + 1
      prev = entry.hash
    }
    if (page.length < EXPORT_PAGE_SIZE) break
    afterSeq = Number(page.at(-1)!.seq)
    onProgress(`${entries.toLocaleString('en-US')} ledger entries checked`)
  }
  return { entries, seals, confirmations, purged, held, seen: new Set<string>(), lastSeq, hashAtAnchor }
}

/** The signed record's columns of a claim page's row, once it is known to have one. */
export function signedRecordOf<Row extends { record_locale: string | null }>(row: Row) {
  return { ...row, locale: row.record_locale } as unknown as Parameters<typeof claimRecordFromRows>[1]
}

/** A claim's signed record's columns, read beside the claim's (a left join: null when it is missing). */
export const SIGNED_RECORD_COLUMNS = [
  'agreement_records.template',
  'agreement_records.template_version',
  'agreement_records.locale as record_locale',
  'agreement_records.html',
  'agreement_records.consent_text',
  'agreement_records.signature',
  'agreement_records.signature_method',
  'agreement_records.typed_signature',
  'agreement_records.adopted_from',
  'agreement_records.signed_at',
  'agreement_records.ip_address',
  'agreement_records.user_agent',
] as const

/** Every row of a table, newest first, in keyset pages. */
function allRows<Table extends 'form_submissions' | 'audit_log'>(db: Kysely<Database>, table: Table) {
  return keysetPages<Selectable<Database[Table]> & { id: number }>(
    (beforeId) =>
      db
        .selectFrom(table as 'form_submissions')
        .selectAll()
        .where('id', '<', beforeId)
        .orderBy('id', 'desc')
        .limit(EXPORT_PAGE_SIZE)
        .execute() as unknown as Promise<(Selectable<Database[Table]> & { id: number })[]>,
  )
}

/** A claim's amendments, or all of them, newest first. */
function amendmentPages(db: Kysely<Database>, claimId: number | undefined) {
  return keysetPages((beforeId) => {
    let query = db
      .selectFrom('claim_amendments')
      .selectAll()
      .where('id', '<', beforeId)
      .orderBy('id', 'desc')
      .limit(EXPORT_PAGE_SIZE)
    if (claimId !== undefined) query = query.where('claim_id', '=', claimId)
    return query.execute()
  })
}

/** The settlement consents (one per claim), or a claim's, newest first. */
function consentPages(db: Kysely<Database>, claimId: number | undefined) {
  return keysetPages(
    (beforeId) => {
      let query = db
        .selectFrom('settlement_consents')
        .selectAll()
        .where('claim_id', '<', beforeId)
        .orderBy('claim_id', 'desc')
        .limit(EXPORT_PAGE_SIZE)
      if (claimId !== undefined) query = query.where('claim_id', '=', claimId)
      return query.execute()
    },
    (row) => row.claim_id,
  )
}

/** Claims with their signed records (null columns when a record is missing), newest first. */
function claimPages(db: Kysely<Database>, claimId: number | undefined) {
  return keysetPages((beforeId) => claimPagesQuery(db, claimId, beforeId))
}

function claimPagesQuery(db: Kysely<Database>, claimId: number | undefined, beforeId: number) {
  let query = db
    .selectFrom('claims')
    .leftJoin('agreement_records', 'agreement_records.claim_id', 'claims.id')
    .leftJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
    .selectAll('claims')
    .select(SIGNED_RECORD_COLUMNS)
    .select([
      'fraud_scores.cleared_by',
      'fraud_scores.cleared_note',
      'fraud_scores.cleared_score',
      'fraud_scores.cleared_audit_id',
      'fraud_scores.cleared_codes',
    ])
    .where('claims.id', '<', beforeId)
    .orderBy('claims.id', 'desc')
    .limit(EXPORT_PAGE_SIZE)
  if (claimId !== undefined) query = query.where('claims.id', '=', claimId)
  return query.execute()
}

/** The SHA-256 of each distinct screenshot of a page, read a few at a time; absent when the file is. */
async function screenshotHashes(
  storage: ScreenshotStorage,
  rows: readonly { screenshot_key: string }[],
): Promise<Map<string, string>> {
  const keys = [...new Set(rows.map((row) => row.screenshot_key))]
  const hashes = new Map<string, string>()
  const next = keys.values()
  const worker = async () => {
    for (let key = next.next(); !key.done; key = next.next()) {
      try {
        const { body } = await storage.stream(key.value)
        const hash = crypto.createHash('sha256')
        for await (const chunk of body) hash.update(chunk as Buffer)
        hashes.set(key.value, hash.digest('hex'))
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'ENOENT') throw error
      }
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return hashes
}
