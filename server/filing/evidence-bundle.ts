import type { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import yazl from 'yazl'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { VisibleApps } from '../../src/api/staff.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale, type Translator } from '../../src/translate.ts'
import { findAgreementByClaimId } from '../agreements/agreement-record.repository.ts'
import { signedAgreementDocument } from '../agreements/agreement-document.ts'
import type { AgreementPdfs } from '../agreements/agreement-pdfs.ts'
import { claimSignedRecord } from '../agreements/signed-record.ts'
import type { Database } from '../db/database.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { batchesOfClaim, type ClaimBatchColumns } from './filing-batches.ts'
import { subjectOf } from '../evidence/ledger.ts'
import { fraudEvidence } from '../fraud/fraud-clearance.ts'
import {
  amendmentRecordFromRow,
  auditRecordFromRow,
  claimRecordFromRows,
  recordText,
} from '../evidence/sealed-record.ts'

/** One file of a bundle: its name in the ZIP and its bytes. */
export interface BundleFile {
  name: string
  bytes: Buffer
}

/**
 * What a firm hands over to prove one claimant's signing: the agreement PDF (with its audit page),
 * the stored HTML, the signature PNG, the screenshot, record.json (the sealed record, canonical),
 * ledger.json (the claim's ledger entries with the entries on either side), review.json (its review
 * status and every move, each with its sealed audit record and ledger entry), fraud.json (its fraud
 * score, the deductions and a decider's clearance with its sealed audit record), each amendment the
 * claimant sent to cure it (amendment-N.json and its files) and VERIFY.txt.
 */
export async function evidenceBundleFiles({
  db,
  storage,
  forms,
  translators,
  agreementPdfs,
  claimId,
  visibleApps,
  authorize = () => undefined,
  recordDownload,
}: {
  db: Kysely<Database>
  storage: ScreenshotStorage
  forms: Map<string, FormConfig>
  /** The documents' own words in each language (Languages.t). */
  translators: (locale: Locale) => Translator
  agreementPdfs: AgreementPdfs
  claimId: number
  /** The apps whose claims the one who asks may see: ledger.json shows other entries as hashes only. */
  visibleApps: VisibleApps
  /** Throws when whoever asks may not have the claim's app's evidence; called before any work. */
  authorize?: (app: string) => void
  /** Puts the download on record (the audit log): no bundle is handed out that is not. */
  recordDownload: (entry: { app: string; action: 'evidence_download'; detail: string }) => Promise<void>
}): Promise<{ files: BundleFile[]; signedAt: Date }> {
  const claim = await db.selectFrom('claims').selectAll().where('id', '=', claimId).executeTakeFirst()
  if (claim) authorize(claim.app)
  const record = await db
    .selectFrom('agreement_records')
    .selectAll()
    .where('claim_id', '=', claimId)
    .executeTakeFirst()
  const signed = await findAgreementByClaimId(db, claimId)
  if (!claim || !record || !signed) {
    throw new AppError('NOT_FOUND', { status: 404, message: `no signed claim "${claimId}"` })
  }
  const t = translators(parseLocale(record.locale) ?? DEFAULT_LOCALE)
  const document = signedAgreementDocument(
    claimSignedRecord(signed, forms.get(claim.app)?.displayName ?? claim.app),
    t,
  )
  const screenshot = await buffer((await storage.stream(claim.screenshot_key)).body)
  const extension = claim.screenshot_key.split('.').pop() ?? 'png'
  const files = [
    {
      name: 'agreement.pdf',
      bytes: await agreementPdfs.make({
        html: document.html,
        title: document.title,
        audit: document.audit,
      }),
    },
    { name: 'agreement.html', bytes: Buffer.from(record.html, 'utf8') },
    {
      name: 'signature.png',
      bytes: Buffer.from(record.signature.slice(record.signature.indexOf(',') + 1), 'base64'),
    },
    { name: `screenshot.${extension}`, bytes: screenshot },
    { name: 'record.json', bytes: Buffer.from(recordText(claimRecordFromRows(claim, record)), 'utf8') },
    {
      name: 'ledger.json',
      bytes: Buffer.from(`${JSON.stringify(await ledgerAround(db, { claimId, visibleApps }), null, 2)}\n`),
    },
    {
      name: 'review.json',
      bytes: Buffer.from(`${JSON.stringify(await reviewHistory(db, claim), null, 2)}\n`),
    },
    {
      name: 'fraud.json',
      bytes: Buffer.from(`${JSON.stringify(await fraudEvidence(db, claimId), null, 2)}\n`),
    },
    ...(await amendmentFiles(db, storage, claimId)),
    ...(await filingFiles(db, claim)),
    { name: 'VERIFY.txt', bytes: Buffer.from(verifyText(claimId, extension), 'utf8') },
  ]
  await recordDownload({ app: claim.app, action: 'evidence_download', detail: `claim ${claimId}` })
  return { files, signedAt: new Date(signed.signedAt) }
}

/**
 * The claim's ledger entries, each with the entry before it and the one after it. A neighbour that is not
 * a claim of an app in `visibleApps` (another app's claim, an intake, a staff action, a purge) keeps only
 * its seq, prev_hash, hash and hmac: its subject would name a record the reader may not see, and the
 * chain proof needs no more of it: the claim's own entries recompute whole, the entry before holds the
 * hash the claim's first entry names as prev_hash, the entry after names the claim's last hash as its
 * own prev_hash, and each hmac is checked under the firm's key as before.
 */
async function ledgerAround(
  db: Kysely<Database>,
  { claimId, visibleApps }: { claimId: number; visibleApps: VisibleApps },
) {
  const amendments = await db
    .selectFrom('claim_amendments')
    .select('id')
    .where('claim_id', '=', claimId)
    .execute()
  const subjects = new Set([
    subjectOf('claim', claimId),
    ...amendments.map(({ id }) => subjectOf('amendment', Number(id))),
  ])
  const own = await db
    .selectFrom('evidence_ledger')
    .select('seq')
    .where('subject', 'in', [...subjects])
    .execute()
  const seqs = [...new Set(own.flatMap(({ seq }) => [Number(seq) - 1, Number(seq), Number(seq) + 1]))]
  const entries = await db
    .selectFrom('evidence_ledger')
    .selectAll()
    .where('seq', 'in', seqs)
    .orderBy('seq')
    .execute()
  const seen = await visibleSubjects(db, {
    subjects: entries.map((entry) => entry.subject).filter((other) => !subjects.has(other)),
    visibleApps,
  })
  return entries.map((entry) => {
    const seq = Number(entry.seq)
    if (subjects.has(entry.subject) || seen.has(entry.subject)) return { ...entry, seq }
    return { seq, prev_hash: entry.prev_hash, hash: entry.hash, hmac: entry.hmac }
  })
}

/**
 * The claim's review status and its moves, oldest first. Each move carries the audit record it was
 * sealed as (canonical text: its SHA-256 is the ledger entry's seal) and that ledger entry. Reviewers'
 * internal notes stay out: the bundle is handed to others.
 */
async function reviewHistory(db: Kysely<Database>, claim: { id: number; review_status: string }) {
  const moves = await db
    .selectFrom('claim_moves')
    .select(['at', 'from_status', 'to_status', 'reason', 'reason_text', 'actor', 'audit_id'])
    .where('claim_id', '=', Number(claim.id))
    .orderBy('id')
    .execute()
  const auditIds = moves.flatMap((move) => (move.audit_id === null ? [] : [Number(move.audit_id)]))
  const audits =
    auditIds.length === 0
      ? []
      : await db.selectFrom('audit_log').selectAll().where('id', 'in', auditIds).execute()
  const entries =
    auditIds.length === 0
      ? []
      : await db
          .selectFrom('evidence_ledger')
          .selectAll()
          .where(
            'subject',
            'in',
            auditIds.map((id) => subjectOf('audit', id)),
          )
          .execute()
  return {
    status: claim.review_status,
    moves: moves.map((move) => {
      const audit = audits.find((row) => Number(row.id) === Number(move.audit_id))
      const entry = entries.find((row) => row.subject === subjectOf('audit', Number(move.audit_id)))
      return {
        at: new Date(Number(move.at)).toISOString(),
        from: move.from_status,
        to: move.to_status,
        reason: move.reason,
        reasonText: move.reason_text,
        by: move.actor,
        sealedRecord: audit ? recordText(auditRecordFromRow(audit)) : null,
        ledgerEntry: entry ? { ...entry, seq: Number(entry.seq) } : null,
      }
    }),
  }
}

/** Which of these ledger subjects the reader may see whole: every one for 'every', else claims of their apps. */
async function visibleSubjects(
  db: Kysely<Database>,
  { subjects, visibleApps }: { subjects: string[]; visibleApps: VisibleApps },
): Promise<Set<string>> {
  if (visibleApps === 'every') return new Set(subjects)
  const claimIds = subjects.flatMap((other) => {
    const match = /^claim:(\d{1,15})$/.exec(other)
    return match ? [Number(match[1])] : []
  })
  // anything else, or a claim purged since (no row left to say its app), stays hashes only: fail-closed
  if (claimIds.length === 0 || visibleApps.length === 0) return new Set()
  const rows = await db
    .selectFrom('claims')
    .select('id')
    .where('id', 'in', claimIds)
    .where('app', 'in', visibleApps)
    .execute()
  return new Set(rows.map(({ id }) => subjectOf('claim', Number(id))))
}

/**
 * Each amendment the claimant sent to cure the claim: amendment-N.json (its sealed record, canonical),
 * and the new screenshot and signature it holds, if any.
 */
async function amendmentFiles(
  db: Kysely<Database>,
  storage: ScreenshotStorage,
  claimId: number,
): Promise<BundleFile[]> {
  const rows = await db
    .selectFrom('claim_amendments')
    .selectAll()
    .where('claim_id', '=', claimId)
    .orderBy('id')
    .execute()
  const files: BundleFile[] = []
  for (const row of rows) {
    const name = `amendment-${row.id}`
    files.push({ name: `${name}.json`, bytes: Buffer.from(recordText(amendmentRecordFromRow(row)), 'utf8') })
    if (row.screenshot_key !== null) {
      files.push({
        name: `${name}-screenshot.${row.screenshot_key.split('.').pop() ?? 'png'}`,
        bytes: await buffer((await storage.stream(row.screenshot_key)).body),
      })
    }
    if (row.signature !== null) {
      files.push({
        name: `${name}-signature.png`,
        bytes: Buffer.from(row.signature.slice(row.signature.indexOf(',') + 1), 'base64'),
      })
    }
  }
  return files
}

/**
 * filing.json, once the claim is in a notice or filing batch: the notice's sending, the filing batch
 * and row ID, and the provider's case number, so the bundle answers for the arbitration it backs.
 */
async function filingFiles(db: Kysely<Database>, claim: ClaimBatchColumns): Promise<BundleFile[]> {
  if (claim.notice_batch_id === null && claim.filing_batch_id === null) return []
  const { notice, filing } = await batchesOfClaim(db, claim)
  const text = JSON.stringify(
    {
      notice: notice
        ? {
            batch: Number(notice.id),
            sentOn: notice.sent_on,
            method: notice.sent_method,
            tracking: notice.sent_tracking,
          }
        : null,
      filing: filing
        ? {
            batch: Number(filing.id),
            provider: filing.provider,
            rowId: filing.row_id,
            batchHash: filing.batch_hash,
            caseNumber: claim.case_number,
          }
        : null,
    },
    null,
    2,
  )
  return [{ name: 'filing.json', bytes: Buffer.from(`${text}\n`, 'utf8') }]
}

function verifyText(claimId: number, extension: string): string {
  return `How to check this bundle (claim ${claimId})

Every hash below is SHA-256, written as 64 hexadecimal characters. On Linux and macOS, sha256sum
(or shasum -a 256) prints it; on Windows, certutil -hashfile FILE SHA256.

1. The sealed record. record.json is the canonical serialisation of everything that proves the
   signing: JSON with no white space, every object's keys in ascending order, UTF-8.
     sha256sum record.json
   prints the seal. ledger.json holds the entry whose "subject" is "claim:${claimId}" and "kind" is
   "claim": its "seal" is that same value. An entry of kind "confirmation" under the same subject
   seals the claimant's confirmation from the e-mail's link (when, from where, in what browser).

2. What record.json says, against the other files.
     sha256sum screenshot.${extension}   equals record.json's screenshot.sha256
     sha256sum agreement.html   equals the "SHA-256 of the signed HTML" on the PDF's audit page;
                                the file's text is record.json's agreement.html
     signature.png              is record.json's signature.image, decoded from base64

3. The ledger. Each entry's "hash" is the SHA-256 of this text, with the entry's own values:
     {"at":"…","detail":"…","kind":"…","prev":"…","seal":"…","seq":N,"subject":"…"}
   ("prev" is the entry's prev_hash, "detail" the text ledger.json shows for it; keys in that order,
   no white space). Each entry's prev_hash is
   the hash of the entry before it, so no entry can be changed, removed or put in between without
   breaking every hash that follows. ledger.json holds the claim's entries and those on either side.
   A neighbour about a record the downloading account may not see (another app's claim, a staff
   action) shows only its seq, prev_hash, hash and hmac: its own hash cannot be recomputed from this
   bundle, but the claim's first entry names it as prev_hash and the entry after the claim's last one
   names that entry's hash as its prev_hash, so the claim's place in the chain still checks.

4. The keyed checks. "seal_hmac" and "hmac" are HMAC-SHA-256 of the seal and of the entry's hash
   under the firm's evidence key, which is not in this bundle: the firm checks them with
     printf %s SEAL | openssl dgst -sha256 -mac HMAC -macopt hexkey:KEY
   or runs npm run verify-evidence -- --claim ${claimId}, which checks the whole chain.

5. agreement.pdf is the agreement as the claimant can download it, with its audit page (time, IP
   address, user agent, the HTML's SHA-256, the template version).

6. review.json is the claim's review: its status now and every move (from, to, reason, by whom).
   Each move's "sealedRecord" is the staff action as the firm sealed it, canonical like record.json:
   its SHA-256 (printf %s, no newline) is the "seal" of the move's "ledgerEntry", whose hash and hmac
   check as in 3 and 4. A reviewer's internal notes are not in the bundle.

7. amendment-N.json, when present, is what the claimant sent to cure the claim after a deficiency
   notice, sealed as record.json is: its SHA-256 is the "seal" of the ledger entry whose subject is
   "amendment:N", and that entry's detail names the record it amends. Its "amends" holds that record's
   kind, id and seal (record.json's for the first, the amendment before it for a later one): the
   original is never changed. amendment-N-screenshot.* hashes to its screenshot.sha256, and
   amendment-N-signature.png is its signature.image, decoded.

8. filing.json, when present, says where the claim went after review: the notice of dispute's batch
   and when and how it was sent, and the filing batch, the claimant's row ID in it, the batch hash
   counsel's statement names, and the provider's case number.

9. fraud.json is the claim's fraud score as the firm's tests left it (1,000 less each deduction, null
   before it was scored), each deduction (code, points, the reason in words, the other claims that made
   it fire) and when it was scored. When a decider cleared the claim ("Not fraud"), its "clearance"
   says who, when, why and the score they saw; its "sealedRecord" is that decision as the firm sealed
   it (its "detail" repeats the clearance word for word), checked against its "ledgerEntry" as in 6.
   npm run verify-evidence -- --claim ${claimId} checks the clearance the database holds against it.
`
}

/** The files as one ZIP, streamed as it is written. */
export function zipBundle(files: readonly BundleFile[], signedAt: Date): Readable {
  const zip = new yazl.ZipFile()
  // the signing time on every file, not now; agreement.pdf's seal alone says when the bundle was made
  for (const { name, bytes } of files) zip.addBuffer(bytes, name, { mtime: signedAt, mode: 0o100644 })
  zip.end()
  return zip.outputStream as Readable
}
