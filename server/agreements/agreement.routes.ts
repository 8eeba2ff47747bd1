import express, { Router, type Request, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import {
  AGREEMENT_NOT_FOUND_MESSAGE,
  checkLookupInput,
  DOWNLOAD_RATE_LIMITED_MESSAGE,
  LOOKUP_RATE_LIMITED_MESSAGE,
} from '../../src/lookup-messages.ts'
import { storedPhoneCandidates } from '../../src/phone.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../i18n/languages.ts'
import { clientAddress } from '../client-address.ts'
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts'
import { DEFAULT_LOCALE, parseLocale } from '../../src/translate.ts'
import { signedAgreementDocument, type SignedRecord } from './agreement-document.ts'
import { claimSignedRecord, intakeSignedRecord } from './signed-record.ts'
import type { AgreementPdfs } from './agreement-pdfs.ts'
import { findAgreementsByContact, type SignedAgreementRow } from './agreement-record.repository.ts'
import { findIntakeAgreementsByContact, type IntakeAgreementRow } from './intake-agreement.repository.ts'
import { intakeAgreementApp } from '../../src/intake-config.ts'
import { requestLocale } from '../i18n/request-locale.ts'
import type { AgreementLookup, FoundAgreement } from '../../src/api/agreements.ts'
import type { PublicDoor } from '../public-doors.ts'

const FIFTEEN_MINUTES = 15 * 60 * 1000
export const LOOKUP_LIMIT: RateLimitRule = {
  name: 'agreement-lookup',
  limit: 10,
  windowMs: FIFTEEN_MINUTES,
  message: LOOKUP_RATE_LIMITED_MESSAGE,
}
export const DOWNLOAD_LIMIT: RateLimitRule = {
  name: 'agreement-download',
  limit: 30,
  windowMs: FIFTEEN_MINUTES,
  message: DOWNLOAD_RATE_LIMITED_MESSAGE,
}

/**
 * The claimant's own agreements. Only e-mail AND phone together find a claim, and "no such e-mail" and
 * "wrong phone" get the same answer, so the lookup tells a stranger nothing.
 */
export function agreementRoutes({
  db,
  forms,
  languages,
  agreementPdfs,
  guardPost,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  languages: Languages
  /** Seals every PDF download with the firm's certificate. */
  agreementPdfs: AgreementPdfs
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
}): Router {
  const router = Router()
  const json = express.json({ limit: '4kb' })

  router.post('/api/agreements/lookup', guardPost('lookup'), json, async (req, res) => {
    await enforceLimit(db, LOOKUP_LIMIT, req)
    const { claims: rows, intakes } = await findOwnAgreements(db, req.body)
    const order = (app: string) => forms.get(app)?.lookupOrder ?? Number.MAX_SAFE_INTEGER
    rows.sort((a, b) => order(a.app) - order(b.app) || a.signedAt.localeCompare(b.signedAt))
    const locale = requestLocale(req)
    res.set('Cache-Control', 'no-store').json({
      // the main form's agreement first: it was signed first, and names every app chosen
      agreements: [
        ...intakes.map((row): FoundAgreement => ({
          kind: 'intake',
          intakeId: row.intakeId,
          appName: intakeAgreementApp({
            config: languages.intake(locale),
            chosen: row.apps,
            locale,
            noneChosen: '',
          }).displayName,
          signedAt: row.signedAt,
          firstName: row.firstName,
          lastName: row.lastName,
          email: row.email,
          phoneNumber: row.phoneNumber,
          signatureMethod: row.signatureMethod,
          typedSignature: row.typedSignature,
          html: row.html,
        })),
        ...rows.map((row): FoundAgreement => ({
          kind: 'claim',
          claimId: row.claimId,
          app: row.app,
          appName: forms.get(row.app)?.displayName ?? row.app,
          signedAt: row.signedAt,
          firstName: row.firstName,
          lastName: row.lastName,
          email: row.email,
          phoneNumber: row.phoneNumber,
          cashAdvanceCount: row.cashAdvanceCount,
          membershipMonths: row.membershipMonths,
          signatureMethod: row.signatureMethod,
          typedSignature: row.typedSignature,
          html: row.html,
        })),
      ],
    } satisfies AgreementLookup)
  })

  router.post('/api/agreements/download', guardPost('download'), json, async (req, res) => {
    await enforceLimit(db, DOWNLOAD_LIMIT, req)
    const body = (req.body ?? {}) as { claimId?: unknown; intakeId?: unknown; format?: unknown }
    const wanted = wantedAgreement(body)
    if (body.format !== 'html' && body.format !== 'pdf') {
      throw new AppError('BAD_REQUEST', { status: 400, message: '"format" must be "html" or "pdf"' })
    }
    const { claims, intakes } = await findOwnAgreements(db, req.body, wanted)
    const record = claims[0]
      ? claimSignedRecord(claims[0], forms.get(claims[0].app)?.displayName ?? claims[0].app)
      : intakes[0] && intakeRecord(intakes[0])
    if (!record) throw notFound()
    // the document speaks the language it was signed in, whatever the page's language is now
    const t = languages.t(parseLocale(record.locale) ?? DEFAULT_LOCALE)
    const signed = signedAgreementDocument(record, t)
    res.set('Cache-Control', 'no-store')
    res.attachment(signed.fileName(body.format))
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

/**
 * The claimant's signed agreements, Step 2 claims and the main form's alike; one of them when an id is
 * given. None at all is a 404 that says the same for a wrong e-mail as for a wrong phone.
 */
async function findOwnAgreements(
  db: Kysely<Database>,
  body: unknown,
  { claimId, intakeId }: { claimId?: number; intakeId?: number } = {},
): Promise<{ claims: SignedAgreementRow[]; intakes: IntakeAgreementRow[] }> {
  const { email, phone } = (body ?? {}) as { email?: unknown; phone?: unknown }
  const input = {
    email: typeof email === 'string' ? email : '',
    phone: typeof phone === 'string' ? phone : '',
  }
  const problems = checkLookupInput(input)
  if (Object.keys(problems).length > 0) {
    const fields: FieldErrors = {}
    for (const [field, message] of Object.entries(problems)) fields[field] = { __errors: [message] }
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: Object.values(problems).join('; '),
      fields,
    })
  }
  const contact = {
    email: input.email.trim().toLowerCase(),
    // whichever way the claimant writes it now, and however it was stored then
    phoneNumbers: storedPhoneCandidates(input.phone),
  }
  const [claims, intakes] = await Promise.all([
    intakeId === undefined
      ? findAgreementsByContact(db, { ...contact, ...(claimId === undefined ? {} : { claimId }) })
      : [],
    claimId === undefined
      ? findIntakeAgreementsByContact(db, { ...contact, ...(intakeId === undefined ? {} : { intakeId }) })
      : [],
  ])
  if (claims.length === 0 && intakes.length === 0) throw notFound()
  return { claims, intakes }
}

function notFound(): AppError {
  return new AppError('AGREEMENT_NOT_FOUND', { status: 404, message: AGREEMENT_NOT_FOUND_MESSAGE })
}
