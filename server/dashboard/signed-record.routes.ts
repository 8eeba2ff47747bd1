import { Router, type Response } from 'express'
import type { Kysely } from 'kysely'
import type { SignedRecordView } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'
import { isoTimestamp } from '../db/timestamp.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { visibleClaim } from './claim-id.ts'

const NO_STORE = 'private, no-store'

/**
 * What a claim's signing recorded, for its details: the signature, when, from where and in what
 * browser, the claimant's confirmation, and the agreement's HTML exactly as signed. Each read is on
 * the record, as the claim's view is. Mounted after requireStaff.
 */
export function signedRecordRoutes({ db, audit }: { db: Kysely<Database>; audit: RecordAudit }): Router {
  const router = Router({ caseSensitive: true })

  const recordOf = async (param: string, res: Response) => {
    const { id: claimId } = await visibleClaim(db, res, param)
    const row = await db
      .selectFrom('claims')
      .innerJoin('agreement_records', 'agreement_records.claim_id', 'claims.id')
      .select([
        'claims.app',
        'claims.confirmed_at',
        'claims.confirmed_ip',
        'claims.confirmed_user_agent',
        'agreement_records.html',
        'agreement_records.sha256',
        'agreement_records.signature',
        'agreement_records.signature_method',
        'agreement_records.typed_signature',
        'agreement_records.adopted_from',
        'agreement_records.signed_at',
        'agreement_records.ip_address',
        'agreement_records.user_agent',
        'agreement_records.template_version',
        'agreement_records.locale',
      ])
      .where('claims.id', '=', claimId)
      .executeTakeFirst()
    if (!row)
      throw new AppError('NOT_FOUND', { status: 404, message: `no signed record for claim "${param}"` })
    return { claimId, row }
  }

  router.get('/api/staff/claims/:id/signed-record', async (req, res) => {
    const { claimId, row } = await recordOf(req.params.id, res)
    await audit({
      ...actorOf(req, res),
      app: row.app,
      action: 'claim_view',
      detail: `claim ${claimId}: signed record`,
    })
    res.set('Cache-Control', NO_STORE).json({
      signedAt: isoTimestamp(row.signed_at),
      ipAddress: row.ip_address,
      userAgent: row.user_agent,
      signature: row.signature,
      signatureMethod: row.signature_method,
      typedName: row.typed_signature,
      adoptedFrom: row.adopted_from,
      locale: row.locale,
      templateVersion: row.template_version,
      agreementSha256: row.sha256,
      confirmation:
        row.confirmed_at === null
          ? null
          : {
              at: isoTimestamp(row.confirmed_at),
              ipAddress: row.confirmed_ip ?? '',
              userAgent: row.confirmed_user_agent ?? '',
            },
    } satisfies SignedRecordView)
  })

  router.get('/api/staff/claims/:id/agreement.html', async (req, res) => {
    const { claimId, row } = await recordOf(req.params.id, res)
    if (!row.html)
      throw new AppError('NOT_FOUND', { status: 404, message: `no signed agreement for claim "${claimId}"` })
    await audit({
      ...actorOf(req, res),
      app: row.app,
      action: 'claim_view',
      detail: `claim ${claimId}: signed agreement`,
    })
    res
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': NO_STORE,
        'X-Content-Type-Options': 'nosniff',
        // the stored document as signed: its own styles and the signature image, nothing that runs or loads
        'Content-Security-Policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        'Cross-Origin-Resource-Policy': 'same-origin',
      })
      .send(row.html)
  })

  return router
}
