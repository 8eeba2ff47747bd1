import type { Kysely, Transaction } from 'kysely'
import {
  CURE_AGE_REQUIRED_MESSAGE,
  CURE_LINK_EXPIRED_MESSAGE,
  CURE_LINK_INVALID_MESSAGE,
  CURE_LINK_USED_MESSAGE,
  CURE_NAME_REQUIRED_MESSAGE,
  CURE_SCREENSHOT_REQUIRED_MESSAGE,
  CURE_TOKEN_PATTERN,
  type CureData,
  type CureSent,
  type CureView,
} from '../../src/api/cure.ts'
import { AppError } from '../../src/app-error.ts'
import { NOT_AN_IMAGE_MESSAGE, SIGNATURE_REQUIRED_MESSAGE } from '../../src/claim-messages.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { cureMoves, fixesFor, type CureFix, type Reviews } from '../../src/review-config.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale, type Translator } from '../../src/translate.ts'
import type { SignerInfo } from '../platform/signer.ts'
import { tokenHash } from '../platform/token-hash.ts'
import type { Database } from '../db/database.ts'
import type { DuplicateScreenshots } from '../duplicates/duplicate-screenshots.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { appendToLedger, subjectOf } from '../evidence/ledger.ts'
import { amendmentRecordFromRow, sealOf } from '../evidence/sealed-record.ts'
import { queueScreenshotCheck } from '../duplicates/screenshot-matches.repository.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import type { CureContentChecker } from '../claim-content/claim-content.ts'
import { assertSignatureAccepted } from '../uploads/check-signature.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import type { UploadedFile } from '../uploads/upload-middleware.ts'
import { reasonText } from './claim-cures.ts'
import { claimantTimeZone } from '../lifecycle/cure-deadline.ts'
import { recordMove } from '../lifecycle/move-claim.ts'

/** The longest name a claim takes (forms/base/step2.json). */
const MAX_NAME_LENGTH = 100

/** The request's language, for a link that names no claim; then the claim's own. */
export interface Speaking {
  t: Translator
  translators: (locale: Locale) => Translator
}

interface CureServices {
  db: Kysely<Database>
  reviews: Reviews
  forms: Map<string, FormConfig>
  evidenceKey: Buffer
  storage: ScreenshotStorage
  /** Checks a new screenshot and signature off the event loop (cureContentThreadChecker), as a claim's are. */
  checkContent: CureContentChecker
  /** Told of each cure with a new screenshot, which is queued for the duplicate check. */
  duplicateScreenshots?: Pick<DuplicateScreenshots, 'wake'> | undefined
}

/** The open cure a link names, with its claim: refused as the claimant will understand it otherwise. */
export async function openCureOf(
  db: Kysely<Database> | Transaction<Database>,
  reviews: Reviews,
  token: unknown,
  { t: requestT, translators }: Speaking,
  now: number,
) {
  if (typeof token !== 'string' || !CURE_TOKEN_PATTERN.test(token)) throw invalidLink(requestT)
  const found = await db
    .selectFrom('claim_cure_links')
    .innerJoin('claim_cures', 'claim_cures.id', 'claim_cure_links.cure_id')
    .innerJoin('claims', 'claims.id', 'claim_cures.claim_id')
    .select([
      'claim_cure_links.token_hash',
      'claim_cure_links.opened_at',
      'claim_cures.id as cure_id',
      'claim_cures.started_at',
      'claim_cures.expires_at',
      'claim_cures.ended_at',
      'claims.id as claim_id',
      'claims.app',
      'claims.first_name',
      'claims.last_name',
      'claims.locale',
      'claims.review_status',
      'claims.review_version',
    ])
    .where('claim_cure_links.token_hash', '=', tokenHash(token))
    .executeTakeFirst()
  if (!found) throw invalidLink(requestT)
  const review = reviews(found.app)
  // from here on the claimant is known: their claim's language, whatever the browser asks
  const t = translators(parseLocale(found.locale) ?? DEFAULT_LOCALE)
  if (found.ended_at !== null) {
    // cured by this link or another of the same notice; otherwise it ran out or a reviewer moved on
    const cured = await db
      .selectFrom('claim_amendments')
      .select('id')
      .where('claim_id', '=', found.claim_id)
      .where('amended_at', '>=', new Date(Number(found.started_at)).toISOString())
      .executeTakeFirst()
    throw gone(t(cured ? CURE_LINK_USED_MESSAGE : CURE_LINK_EXPIRED_MESSAGE))
  }
  if (Number(found.expires_at) <= now || !cureMoves(review, found.review_status)) {
    throw gone(t(CURE_LINK_EXPIRED_MESSAGE))
  }
  const moves = await db
    .selectFrom('claim_moves')
    .select(['reason', 'reason_text'])
    .where('id', '=', found.cure_id)
    .execute()
  const reasons = moves.flatMap(({ reason }) => (reason === null ? [] : [reason]))
  return { ...found, review, moves, reasons, fix: fixesFor(review, reasons), t }
}

/**
 * The cure page opened by a link: what is wrong and what to send. The first opening of each link is
 * on the record (the claimant saw the notice); the page shows only the claim the link names.
 */
export async function openCure(
  { db, reviews, forms, evidenceKey }: Pick<CureServices, 'db' | 'reviews' | 'forms' | 'evidenceKey'>,
  {
    token,
    speaking,
    opener,
    now = Date.now(),
  }: { token: unknown; speaking: Speaking; opener: SignerInfo; now?: number },
): Promise<CureView> {
  const cure = await openCureOf(db, reviews, token, speaking, now)
  if (cure.opened_at === null) {
    await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const first = await trx
          .updateTable('claim_cure_links')
          .set({ opened_at: now })
          .where('token_hash', '=', cure.token_hash)
          .where('opened_at', 'is', null)
          .executeTakeFirst()
        if (Number(first.numUpdatedRows) !== 1) return
        await writeAuditEntry(trx, evidenceKey, {
          clientAddress: opener.ipAddress,
          actor: 'claimant',
          app: cure.app,
          action: 'cure_link_opened',
          detail: `claim ${cure.claim_id}: cure link opened`,
        })
      }),
    )
  }
  const locale = parseLocale(cure.locale) ?? DEFAULT_LOCALE
  return {
    appName: forms.get(cure.app)?.displayName ?? cure.app,
    problems: cure.moves.map(({ reason, reason_text }) =>
      reasonText(cure.review, reason, reason_text, locale),
    ),
    fix: cure.fix,
    firstName: cure.first_name,
    lastName: cure.last_name,
    expiresAt: new Date(Number(cure.expires_at)).toISOString(),
    timeZone: await claimantTimeZone(db, Number(cure.claim_id)),
  }
}

/**
 * A claimant's corrections: checked against what the notice asked for, the new screenshot stored,
 * then in one transaction the amendment (a sealed record naming the record it amends), its ledger
 * entry, its audit entry and the claim's move to cured. Any failure leaves neither row nor file.
 */
export async function submitCure(
  { db, reviews, evidenceKey, storage, checkContent, duplicateScreenshots }: Omit<CureServices, 'forms'>,
  {
    data,
    file,
    speaking,
    signer,
    now = Date.now(),
  }: { data: unknown; file: UploadedFile | undefined; speaking: Speaking; signer: SignerInfo; now?: number },
): Promise<CureSent> {
  const sent = parseCureData(data, speaking.t)
  const cure = await openCureOf(db, reviews, sent.token, speaking, now)
  const corrections = await checkCorrections({ fix: cure.fix, sent, file, t: cure.t, checkContent })

  const key = corrections.screenshot
    ? await storage.save({
        app: cure.app,
        extension: corrections.screenshot.extension,
        bytes: corrections.screenshot.bytes,
      })
    : null
  try {
    const amended = await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        // the cure as it is now: a second submission, or the period's end, may have come first
        const current = await openCureOf(trx, reviews, sent.token, speaking, now)
        const cured = cureMoves(current.review, current.review_status)!.cured
        const amends = await amendedRecord(trx, current.claim_id)
        const row = {
          claim_id: current.claim_id,
          app: current.app,
          amends_kind: amends.kind,
          amends_id: amends.id,
          amends_seal: amends.seal,
          reasons: JSON.stringify(current.reasons),
          fields: corrections.fields === null ? null : JSON.stringify(corrections.fields),
          screenshot_key: key,
          screenshot_type: corrections.screenshot?.mime ?? null,
          screenshot_sha256: corrections.screenshot?.sha256 ?? null,
          signature: corrections.signature?.image ?? null,
          signature_method: corrections.signature?.method ?? null,
          amended_at: new Date(now).toISOString(),
          ip_address: signer.ipAddress,
          user_agent: signer.userAgent,
          locale: current.locale,
        }
        const { id } = await trx
          .insertInto('claim_amendments')
          .values(row)
          .returning('id')
          .executeTakeFirstOrThrow()
        const amendmentId = Number(id)
        // the new screenshot is checked against other claimants' as a claim's is
        if (key !== null) await queueScreenshotCheck(trx, Number(current.claim_id))
        await appendToLedger(trx, evidenceKey, [
          {
            kind: 'amendment',
            subject: subjectOf('amendment', amendmentId),
            seal: sealOf(amendmentRecordFromRow({ ...row, id: amendmentId })),
            detail: { amends: subjectOf(amends.kind, amends.id) },
          },
        ])
        const by = { clientAddress: signer.ipAddress, accountId: null, actor: 'claimant' }
        await writeAuditEntry(trx, evidenceKey, {
          ...by,
          accountId: undefined,
          app: current.app,
          action: 'claim_amended',
          detail: `claim ${current.claim_id}: amendment ${amendmentId} (${cure.fix.join(', ')})`,
        })
        await recordMove(trx, {
          evidenceKey,
          review: current.review,
          claim: {
            id: Number(current.claim_id),
            app: current.app,
            status: current.review_status,
            version: Number(current.review_version),
          },
          to: cured,
          by,
          mover: 'claimant',
          at: now,
        })
        return { amendmentId }
      }),
    )
    if (key !== null) duplicateScreenshots?.wake()
    return amended
  } catch (error) {
    if (key !== null) await storage.remove(key)
    throw error
  }
}

/** The newest record of a claim: its last amendment, or the claim's own, with the seal the ledger holds. */
async function amendedRecord(
  trx: Transaction<Database>,
  claimId: number,
): Promise<{ kind: 'claim' | 'amendment'; id: number; seal: string }> {
  const last = await trx
    .selectFrom('claim_amendments')
    .select('id')
    .where('claim_id', '=', claimId)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  const kind = last ? 'amendment' : 'claim'
  const id = last ? Number(last.id) : Number(claimId)
  const sealed = await trx
    .selectFrom('evidence_ledger')
    .select('seal')
    .where('subject', '=', subjectOf(kind, id))
    .where('kind', '=', kind)
    .orderBy('seq', 'desc')
    .executeTakeFirst()
  return { kind, id, seal: sealed?.seal ?? '' }
}

function parseCureData(data: unknown, t: Translator): CureData {
  let parsed: unknown
  try {
    parsed = typeof data === 'string' ? JSON.parse(data) : undefined
  } catch {
    parsed = undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: 'send the corrections as multipart/form-data with a "data" field holding their JSON',
    })
  }
  const sent = parsed as Record<string, unknown>
  if (typeof sent.token !== 'string' || !CURE_TOKEN_PATTERN.test(sent.token)) throw invalidLink(t)
  return sent as unknown as CureData
}

interface Corrections {
  fields: Record<string, string | boolean> | null
  screenshot: { bytes: Buffer; mime: string; extension: string; sha256: string } | null
  signature: { image: string; method: string } | null
}

/** What the notice asked for, each checked; what it did not ask for is refused rather than ignored. */
async function checkCorrections({
  fix,
  sent,
  file,
  t,
  checkContent,
}: {
  fix: readonly CureFix[]
  sent: CureData
  file: UploadedFile | undefined
  t: Translator
  checkContent: CureContentChecker
}): Promise<Corrections> {
  const asks = (what: CureFix) => fix.includes(what)
  const fields: Record<string, string | boolean> = {}
  if (file && !asks('screenshot')) throw notAsked('a new screenshot')
  if ((sent.firstName !== undefined || sent.lastName !== undefined) && !asks('name')) throw notAsked('a name')
  if (sent.signature !== undefined && !asks('signature')) throw notAsked('a new signature')
  if (sent.over18 !== undefined && !asks('age')) throw notAsked('the age statement')

  if (asks('name')) {
    const first = typeof sent.firstName === 'string' ? sent.firstName.trim() : ''
    const last = typeof sent.lastName === 'string' ? sent.lastName.trim() : ''
    if (first === '' || last === '') throw invalid('name', t(CURE_NAME_REQUIRED_MESSAGE))
    if (first.length > MAX_NAME_LENGTH || last.length > MAX_NAME_LENGTH) {
      throw invalid('name', `a name is at most ${MAX_NAME_LENGTH} characters`)
    }
    fields.firstName = first
    fields.lastName = last
  }
  if (asks('age')) {
    if (sent.over18 !== true) throw invalid('over18', t(CURE_AGE_REQUIRED_MESSAGE))
    fields.over18 = true
  }
  if (asks('screenshot') && !file) throw invalid('screenshot', t(CURE_SCREENSHOT_REQUIRED_MESSAGE))
  const signatureImage = asks('signature')
    ? typeof sent.signature === 'string'
      ? sent.signature
      : ''
    : undefined
  const content =
    file || signatureImage !== undefined
      ? await checkContent({ screenshot: file?.buffer, signature: signatureImage })
      : undefined
  let screenshot: Corrections['screenshot'] = null
  if (content?.screenshot) {
    if (!content.image || !content.screenshotSha256) throw invalid('screenshot', t(NOT_AN_IMAGE_MESSAGE))
    screenshot = { bytes: content.screenshot, ...content.image, sha256: content.screenshotSha256 }
  }
  let signature: Corrections['signature'] = null
  if (signatureImage !== undefined) {
    assertSignatureAccepted(content!.signature!, 'Signature', t(SIGNATURE_REQUIRED_MESSAGE))
    signature = { image: signatureImage, method: sent.signatureMethod === 'typed' ? 'typed' : 'drawn' }
  }
  return { fields: Object.keys(fields).length > 0 ? fields : null, screenshot, signature }
}

function invalidLink(t: Translator): AppError {
  return new AppError('NOT_FOUND', { status: 404, message: t(CURE_LINK_INVALID_MESSAGE) })
}

function gone(message: string): AppError {
  return new AppError('LINK_EXPIRED', { status: 410, message })
}

function notAsked(what: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message: `this claim's notice did not ask for ${what}` })
}

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    status: 422,
    message,
    fields: { [field]: { __errors: [message] } },
  })
}
