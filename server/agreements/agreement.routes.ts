import express, { Router, type Request } from 'express'
import type { Kysely } from 'kysely'
import { AppError, type FieldErrors } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import {
  AGREEMENT_NOT_FOUND_MESSAGE,
  checkLookupInput,
  DOWNLOAD_RATE_LIMITED_MESSAGE,
  LOOKUP_RATE_LIMITED_MESSAGE,
} from '../../src/lookup-messages.ts'
import { formatPhone } from '../../src/phone.ts'
import type { Database } from '../db/database.ts'
import type { Languages } from '../i18n/languages.ts'
import { hitRateLimit, type RateLimitRule } from '../rate-limit.ts'
import { signedAgreementDocument } from './agreement-document.ts'
import { renderAgreementPdf } from './agreement-pdf.ts'
import { findAgreementsByContact, type SignedAgreementRow } from './agreement-record.repository.ts'

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
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  languages: Languages
}): Router {
  const router = Router()
  const json = express.json({ limit: '4kb' })

  router.post('/api/agreements/lookup', json, async (req, res) => {
    await enforceLimit(db, LOOKUP_LIMIT, req)
    const rows = await findOwnAgreements(db, req.body)
    const order = (app: string) => forms.get(app)?.lookupOrder ?? Number.MAX_SAFE_INTEGER
    rows.sort((a, b) => order(a.app) - order(b.app) || a.signedAt.localeCompare(b.signedAt))
    res.set('Cache-Control', 'no-store').json({
      agreements: rows.map((row) => ({
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
        html: row.html,
      })),
    })
  })

  router.post('/api/agreements/download', json, async (req, res) => {
    await enforceLimit(db, DOWNLOAD_LIMIT, req)
    const body = (req.body ?? {}) as { claimId?: unknown; format?: unknown }
    const claimId = Number(body.claimId)
    if (!Number.isSafeInteger(claimId) || claimId <= 0) {
      throw new AppError('BAD_REQUEST', {
        status: 400,
        message: '"claimId" must be the id of one of your claims',
      })
    }
    if (body.format !== 'html' && body.format !== 'pdf') {
      throw new AppError('BAD_REQUEST', { status: 400, message: '"format" must be "html" or "pdf"' })
    }
    const [row] = await findOwnAgreements(db, req.body, claimId)
    if (!row) throw notFound()
    const signed = signedAgreementDocument(row, forms.get(row.app)?.displayName ?? row.app)
    res.set('Cache-Control', 'no-store')
    res.attachment(signed.fileName(body.format))
    if (body.format === 'html') {
      res.type('text/html; charset=utf-8').send(signed.document)
    } else {
      res
        .type('application/pdf')
        .send(await renderAgreementPdf({ html: row.html, title: signed.title, audit: signed.audit }))
    }
  })
  return router
}

async function enforceLimit(db: Kysely<Database>, rule: RateLimitRule, req: Request): Promise<void> {
  const { allowed, retryAfterSeconds } = await hitRateLimit(db, { rule, client: req.ip ?? 'unknown' })
  if (allowed) return
  throw new AppError('RATE_LIMITED', {
    status: 429,
    message: rule.message,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  })
}

async function findOwnAgreements(
  db: Kysely<Database>,
  body: unknown,
  claimId?: number,
): Promise<SignedAgreementRow[]> {
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
  const rows = await findAgreementsByContact(db, {
    email: input.email.trim().toLowerCase(),
    phoneNumber: formatPhone(input.phone),
    ...(claimId === undefined ? {} : { claimId }),
  })
  if (rows.length === 0) throw notFound()
  return rows
}

function notFound(): AppError {
  return new AppError('AGREEMENT_NOT_FOUND', { status: 404, message: AGREEMENT_NOT_FOUND_MESSAGE })
}
