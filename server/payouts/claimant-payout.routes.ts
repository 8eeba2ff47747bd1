import express, { Router, type Request, type RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  CLAIMANT_PAYOUTS_PATH,
  CONSENT_ALREADY_SIGNED_MESSAGE,
  CONSENT_NOT_NEEDED_MESSAGE,
  PAYOUT_CHOICE_PATH,
  PAYOUT_CONSENT_PATH,
  PAYOUT_NOT_FOUND_MESSAGE,
  PAYOUT_W9_PATH,
  type ClaimantPayout,
  type ClaimantPayouts,
  type PayoutSaved,
} from '../../src/api/claimant-payouts.ts'
import { DOWNLOAD_KEY_EXPIRED_MESSAGE } from '../../src/lookup-messages.ts'
import type { Locale } from '../../src/translate.ts'
import { findDownloadKey, isLinkToken } from '../agreements/agreement-link.repository.ts'
import type { SignedAgreementRow } from '../agreements/agreement-record.repository.ts'
import { findOwnAgreements } from '../agreements/own-agreements.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { Languages } from '../forms/languages.ts'
import { requestLocale } from '../platform/request-locale.ts'
import { signerOf } from '../platform/signer.ts'
import type { PublicDoor } from '../public-doors.ts'
import { checkAddresses, readClaimantPayouts } from './claimant-payout.ts'
import { fieldRefusal } from './payout-refusals.ts'
import { readPayoutSignature } from './payout-signature.ts'
import { payoutTranslator } from './payout-texts.ts'
import { savePayoutChoice } from './save-payout-choice.ts'
import { saveTaxForm } from './save-tax-form.ts'
import { readSettlementFacts, recordConsent, renderConsentDisclosure } from './settlement-consent.ts'

const KEY_MISSING = 'send "key", the download key that opening the link from the e-mail gave'

/**
 * The claimant's side of payouts, on the page their e-mailed link opened. Each POST carries that
 * page's download key in its JSON body (agreement.routes.ts: single use link, 30-minute key, never in
 * a URL) and reaches only the claims of the contact the key stands for: another claimant's claim and a
 * claim without an award get the same 404. The numbers typed here (bank account, SSN or EIN) are sealed
 * before they are stored and never answered back whole; the request log holds no body.
 */
export function claimantPayoutRoutes({
  db,
  languages,
  evidenceKey,
  paymentsKey,
  guardPost,
}: {
  db: Kysely<Database>
  languages: Languages
  /** Seals each settlement consent on the evidence chain. */
  evidenceKey: Buffer
  /** Seals the account and taxpayer numbers (loadPaymentsKey). */
  paymentsKey: Buffer
  /** The Origin check and the limits every public POST passes first (guardPublicPost). */
  guardPost: (door: PublicDoor) => RequestHandler
}): Router {
  const router = Router({ caseSensitive: true })
  const small = express.json({ limit: '2kb' })
  // a drawn signature is a PNG data URL
  const signed = express.json({ limit: '256kb' })
  const appNames = (locale: Locale) => (app: string) => languages.forms(locale).get(app)?.displayName ?? app

  async function answer(req: Request, claim: SignedAgreementRow): Promise<ClaimantPayout> {
    const locale = requestLocale(req)
    const [payout] = await readClaimantPayouts({ db, claims: [claim], appNames: appNames(locale), locale })
    if (!payout) throw notFound(locale)
    return payout
  }

  // counted with the opens, like the intake answers: each needs the key an opened link gave
  router.post(CLAIMANT_PAYOUTS_PATH, guardPost('open'), small, async (req, res) => {
    const contact = await contactOf(db, req.body)
    const locale = requestLocale(req)
    const { claims } = await findOwnAgreements(db, contact)
    const payouts = await readClaimantPayouts({ db, claims, appNames: appNames(locale), locale })
    res.set('Cache-Control', 'no-store').json({ payouts } satisfies ClaimantPayouts)
  })

  router.post(PAYOUT_CONSENT_PATH, guardPost('open'), signed, async (req, res) => {
    const locale = requestLocale(req)
    const t = payoutTranslator(locale)
    const { claim, settlementId } = await ownAwardedClaim(db, req.body, locale)
    if (settlementId === null) {
      throw new AppError('CONFLICT', { status: 409, message: t(CONSENT_NOT_NEEDED_MESSAGE) })
    }
    const { signing, errors } = readPayoutSignature(req.body as Record<string, unknown>, t)
    if (!signing) throw fieldRefusal(errors)
    const facts = await readSettlementFacts(db, { settlementId, claimId: claim.claimId })
    // rendered again as the page showed it, from the same rows, in the page's language
    const html = renderConsentDisclosure(facts, locale)
    await retryWhileLocked(() =>
      db.transaction().execute(async (trx) => {
        const earlier = await trx
          .selectFrom('settlement_consents')
          .select('claim_id')
          .where('claim_id', '=', claim.claimId)
          .executeTakeFirst()
        if (earlier)
          throw new AppError('CONFLICT', { status: 409, message: t(CONSENT_ALREADY_SIGNED_MESSAGE) })
        await recordConsent(trx, {
          evidenceKey,
          claimId: claim.claimId,
          settlementId,
          html,
          signing,
          locale,
          signer: signerOf(req),
          now: Date.now(),
        })
      }),
    )
    res
      .status(201)
      .set('Cache-Control', 'no-store')
      .json({ payout: await answer(req, claim) } satisfies PayoutSaved)
  })

  router.post(PAYOUT_CHOICE_PATH, guardPost('open'), small, async (req, res) => {
    const locale = requestLocale(req)
    const { claim } = await ownAwardedClaim(db, req.body, locale)
    const { key: _key, claimId: _claimId, ...input } = req.body as Record<string, unknown>
    await savePayoutChoice({
      db,
      paymentsKey,
      claimId: claim.claimId,
      input,
      hasCheckAddress: (await checkAddresses(db, [claim])).has(claim.claimId),
      audit: { evidenceKey, clientAddress: signerOf(req).ipAddress, app: claim.app },
      t: payoutTranslator(locale),
    })
    res.set('Cache-Control', 'no-store').json({ payout: await answer(req, claim) } satisfies PayoutSaved)
  })

  router.post(PAYOUT_W9_PATH, guardPost('open'), signed, async (req, res) => {
    const locale = requestLocale(req)
    const { claim } = await ownAwardedClaim(db, req.body, locale)
    const { key: _key, claimId: _claimId, ...input } = req.body as Record<string, unknown>
    await saveTaxForm({
      db,
      paymentsKey,
      claimId: claim.claimId,
      input,
      signer: signerOf(req),
      audit: { evidenceKey, clientAddress: signerOf(req).ipAddress, app: claim.app },
      t: payoutTranslator(locale),
    })
    res.set('Cache-Control', 'no-store').json({ payout: await answer(req, claim) } satisfies PayoutSaved)
  })
  return router
}

/** The contact an opened link's key stands for; 400 without a key, 410 once it has lapsed. */
async function contactOf(db: Kysely<Database>, body: unknown) {
  const { key } = (body ?? {}) as { key?: unknown }
  if (!isLinkToken(key)) throw new AppError('BAD_REQUEST', { status: 400, message: KEY_MISSING })
  const contact = await findDownloadKey(db, { key, now: Date.now() })
  if (!contact) throw new AppError('LINK_EXPIRED', { status: 410, message: DOWNLOAD_KEY_EXPIRED_MESSAGE })
  return contact
}

/**
 * The claim named by `claimId`, when it is the key's contact's and has an award. One 404 for a claim
 * of someone else's, one without an award and one that does not exist: the key learns nothing of them.
 */
async function ownAwardedClaim(
  db: Kysely<Database>,
  body: unknown,
  locale: Locale,
): Promise<{ claim: SignedAgreementRow; settlementId: number | null }> {
  const contact = await contactOf(db, body)
  const { claimId } = (body ?? {}) as { claimId?: unknown }
  if (typeof claimId !== 'number' || !Number.isSafeInteger(claimId) || claimId <= 0) {
    throw new AppError('BAD_REQUEST', {
      status: 400,
      message: 'send "claimId", the number of one of your claims',
    })
  }
  const [claim] = (await findOwnAgreements(db, contact, { claimId })).claims
  const award =
    claim &&
    (await db
      .selectFrom('claim_awards')
      .select('settlement_id')
      .where('claim_id', '=', claimId)
      .executeTakeFirst())
  if (!claim || !award) throw notFound(locale)
  return { claim, settlementId: award.settlement_id === null ? null : Number(award.settlement_id) }
}

function notFound(locale: Locale): AppError {
  return new AppError('NOT_FOUND', {
    status: 404,
    message: payoutTranslator(locale)(PAYOUT_NOT_FOUND_MESSAGE),
  })
}
