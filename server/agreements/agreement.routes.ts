import express, { Router, type Request, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import {
  AGREEMENT_NOT_FOUND_MESSAGE,
  DOWNLOAD_KEY_EXPIRED_MESSAGE,
  DOWNLOAD_RATE_LIMITED_MESSAGE,
  LINK_INCOMPLETE_MESSAGE,
  LINK_SENT_MESSAGE,
  LINK_USED_OR_EXPIRED_MESSAGE,
} from '../../src/lookup-messages.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { Languages } from '../forms/languages.ts'
import { clientAddress } from '../client-address.ts'
import { contentDisposition } from '../content-disposition.ts'
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts'
import { DEFAULT_LOCALE, parseLocale, type Locale } from '../../src/translate.ts'
import { signedAgreementDocument, type SignedRecord } from './agreement-document.ts'
import { claimSignedRecord, intakeSignedRecord } from './signed-record.ts'
import type { AgreementPdfs } from './agreement-pdfs.ts'
import type { IntakeAgreementRow } from './intake-agreement.repository.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import { requestLocale } from '../platform/request-locale.ts'
import type { AgreementLinkSent, ClaimantStatus, OpenedAgreementLink } from '../../src/api/agreements.ts'
import type { PublicDoor } from '../public-doors.ts'
import { linkOrigin } from '../public-origin.ts'
import { LINK_TTL_MS, type AgreementLinks } from './agreement-links.ts'
import {
  deleteDownloadKey,
  findDownloadKey,
  insertAgreementLink,
  isLinkToken,
  newLinkToken,
  takeAgreementLink,
} from './agreement-link.repository.ts'
import { findOwnAgreements, parseContact, toFoundAgreements, type OwnAgreements } from './own-agreements.ts'

const FIFTEEN_MINUTES = 15 * 60 * 1000
const DOWNLOAD_KEY_MISSING = 'send "key", the download key that opening the link from the e-mail gave'
export const DOWNLOAD_LIMIT: RateLimitRule = {
  name: 'agreement-download',
  limit: 30,
  windowMs: FIFTEEN_MINUTES,
  message: DOWNLOAD_RATE_LIMITED_MESSAGE,
}

/**
 * The claimant's own agreements, by a one-time link. The lookup takes e-mail and phone and always gives
 * the same answer at once; only if both match a signed agreement does the stored address get a link.
 * Opening the link (once, within 30 minutes) shows the agreements and gives a key their downloads take;
 * closing the page ends the key, and a spent link can ask for one new link to the same address.
 */
export function agreementRoutes({
  db,
  forms,
  languages,
  agreementPdfs,
  agreementLinks,
  guardPost,
  statusOf,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  languages: Languages
  /** Seals every PDF download with the firm's certificate. */
  agreementPdfs: AgreementPdfs
  /** E-mails the links, in the background of the lookup's answer. */
  agreementLinks: AgreementLinks
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
  /**
   * What the opened page says of each claim and of the apps still to do (the journey's claimant-status.ts),
   * in the reader's language: given, so that this file knows nothing of reviews and reminders.
   */
  statusOf: (own: OwnAgreements, locale: Locale, now: number) => Promise<ClaimantStatus>
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '4kb' })

  router.post('/api/agreements/lookup', guardPost('lookup'), json, async (req, res) => {
    const contact = parseContact(req.body)
    const locale = requestLocale(req)
    // answered before anything is looked up: neither the answer nor its timing says whether it matched
    res
      .status(202)
      .set('Cache-Control', 'no-store')
      .json({ message: languages.t(locale)(LINK_SENT_MESSAGE) } satisfies AgreementLinkSent)
    agreementLinks.request({ contact, origin: linkOrigin(req), locale })
  })

  router.post('/api/agreements/open', guardPost('open'), json, async (req, res) => {
    const { token } = (req.body ?? {}) as { token?: unknown }
    if (!isLinkToken(token)) {
      throw new AppError('BAD_REQUEST', { status: 400, message: LINK_INCOMPLETE_MESSAGE })
    }
    const now = Date.now()
    const downloadKey = newLinkToken()
    // the link is spent only with its download key stored: a failure in between leaves it unused
    const contact = await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const taken = await takeAgreementLink(trx, { token, now })
        if (taken) {
          await insertAgreementLink(trx, {
            token: downloadKey,
            purpose: 'download',
            contact: taken,
            now,
            ttlMs: LINK_TTL_MS,
          })
        }
        return taken
      }),
    )
    if (!contact) throw new AppError('LINK_EXPIRED', { status: 410, message: LINK_USED_OR_EXPIRED_MESSAGE })
    // a clean-up that fails is done by the next one; the claimant's answer does not wait for it
    void agreementLinks.pruneNow(now).catch(() => undefined)
    const own = await findOwnAgreements(db, contact)
    // an intake the claimant said was not theirs is listed as such, but gives no reference or Step 2 links
    const theirs = { ...own, intakes: own.intakes.filter((intake) => intake.disownedAt === null) }
    const locale = requestLocale(req)
    res.set('Cache-Control', 'no-store').json({
      agreements: toFoundAgreements({ own, forms, languages, locale }),
      downloadKey,
      downloadsUntil: new Date(now + LINK_TTL_MS).toISOString(),
      status: await statusOf(theirs, locale, now),
    } satisfies OpenedAgreementLink)
  })

  // a mail app that scans links opens the claimant's first: the page offers a new one from the spent
  // link. The same proof of work, per-address count and answer as the lookup, answered before anything
  // is looked up, so the holder of a link learns neither the address nor whether one was sent
  router.post('/api/agreements/resend', guardPost('lookup'), json, async (req, res) => {
    const { token } = (req.body ?? {}) as { token?: unknown }
    if (!isLinkToken(token)) {
      throw new AppError('BAD_REQUEST', { status: 400, message: LINK_INCOMPLETE_MESSAGE })
    }
    const locale = requestLocale(req)
    res
      .status(202)
      .set('Cache-Control', 'no-store')
      .json({ message: languages.t(locale)(LINK_SENT_MESSAGE) } satisfies AgreementLinkSent)
    agreementLinks.resend({ token, origin: linkOrigin(req), locale })
  })

  // "Look up another agreement": on a shared phone, the next person must not reach the last one's
  // downloads with a key left behind in the tab. Counted with the opens, which give the keys
  router.post('/api/agreements/close', guardPost('open'), json, async (req, res) => {
    const { key } = (req.body ?? {}) as { key?: unknown }
    if (!isLinkToken(key)) {
      throw new AppError('BAD_REQUEST', { status: 400, message: DOWNLOAD_KEY_MISSING })
    }
    await deleteDownloadKey(db, key)
    res.status(204).set('Cache-Control', 'no-store').end()
  })

  router.post('/api/agreements/download', guardPost('download'), json, async (req, res) => {
    await enforceLimit(db, DOWNLOAD_LIMIT, req)
    const body = (req.body ?? {}) as {
      key?: unknown
      claimId?: unknown
      intakeId?: unknown
      format?: unknown
    }
    const wanted = wantedAgreement(body)
    if (body.format !== 'html' && body.format !== 'pdf') {
      throw new AppError('BAD_REQUEST', { status: 400, message: '"format" must be "html" or "pdf"' })
    }
    if (!isLinkToken(body.key)) {
      throw new AppError('BAD_REQUEST', { status: 400, message: DOWNLOAD_KEY_MISSING })
    }
    const contact = await findDownloadKey(db, { key: body.key, now: Date.now() })
    if (!contact) throw new AppError('LINK_EXPIRED', { status: 410, message: DOWNLOAD_KEY_EXPIRED_MESSAGE })
    const { claims, intakes } = await findOwnAgreements(db, contact, wanted)
    const record = claims[0]
      ? claimSignedRecord(claims[0], forms.get(claims[0].app)?.displayName ?? claims[0].app)
      : intakes[0] && intakeRecord(intakes[0])
    if (!record) {
      throw new AppError('AGREEMENT_NOT_FOUND', { status: 404, message: AGREEMENT_NOT_FOUND_MESSAGE })
    }
    // the document speaks the language it was signed in, whatever the page's language is now
    const t = languages.t(parseLocale(record.locale) ?? DEFAULT_LOCALE)
    const signed = signedAgreementDocument(record, t)
    res.set({
      'Cache-Control': 'no-store',
      'Content-Disposition': contentDisposition(signed.fileName(body.format)),
    })
    if (body.format === 'html') {
      res.type('text/html; charset=utf-8').send(signed.document)
    } else {
      res
        .type('application/pdf')
        .send(await agreementPdfs.make({ html: signed.html, title: signed.title, audit: signed.audit }))
    }
  })
  return router

  function intakeRecord(row: IntakeAgreementRow): SignedRecord {
    const locale = parseLocale(row.locale) ?? DEFAULT_LOCALE
    const config = languages.intake(locale)
    return intakeSignedRecord(
      row,
      intakeAgreementApp({ config, chosen: row.apps, locale, noneChosen: '' }).displayName,
    )
  }
}

/** A download names one agreement: a claim's ("claimId") or a main-form intake's ("intakeId"). */
function wantedAgreement(body: { claimId?: unknown; intakeId?: unknown }): {
  claimId?: number
  intakeId?: number
} {
  const isId = (value: unknown) => Number.isSafeInteger(Number(value)) && Number(value) > 0
  if (body.claimId !== undefined && body.intakeId === undefined && isId(body.claimId)) {
    return { claimId: Number(body.claimId) }
  }
  if (body.intakeId !== undefined && body.claimId === undefined && isId(body.intakeId)) {
    return { intakeId: Number(body.intakeId) }
  }
  throw new AppError('BAD_REQUEST', {
    status: 400,
    message: 'send "claimId" (the id of one of your claims) or "intakeId" (of your main-form submission)',
  })
}

async function enforceLimit(db: Kysely<Database>, rule: RateLimitRule, req: Request): Promise<void> {
  const { allowed, retryAfterSeconds } = await hitRateLimit(db, { rule, client: clientAddress(req) })
  if (allowed) return
  throw new AppError('RATE_LIMITED', {
    status: 429,
    message: rule.message,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  })
}
