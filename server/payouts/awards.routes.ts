import express, { Router, type Request, type Response } from 'express'
import type { Kysely } from 'kysely'
import {
  MAX_AWARD_PAGE_SIZE,
  type AwardList,
  type AwardSet,
  type AwardsImported,
  type SettlementCreated,
} from '../../src/api/payouts.ts'
import { canDecideApp, canPayApp } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import { parseCents } from '../../src/money.ts'
import type { Reviews } from '../../src/review-config.ts'
import { actorOf } from '../audit/audit-log.ts'
import { visibleClaim } from '../dashboard/claim-id.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import { importAwards } from './award-import.ts'
import { setAwardCosts } from './award-costs.ts'
import { setAward, type AwardActor } from './awards.ts'
import { listAwards } from './list-awards.ts'
import { createSettlement } from './settlements.ts'

const NO_STORE = 'private, no-store'
/** The most claims one settlement lists by id; left out, it takes every filed claim of the app. */
const MAX_SETTLEMENT_CLAIMS = 100_000
const MAX_SETTLEMENT_NAME = 200

/**
 * Awards on an app's claims: one claim's award typed (with the costs the firm advanced on it), a
 * provider's award file imported, a settlement shared among filed claims, and the list. Setting awards
 * needs the app's decide right (an admin has it); the costs advanced on an award alone, and the list,
 * the decide or the payments right. Mounted after requireStaff and sameOriginOnly.
 */
export function awardRoutes({
  db,
  forms,
  reviews,
  evidenceKey,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  reviews: Reviews
  evidenceKey: Buffer
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '2mb' })
  // a provider's award file for tens of thousands of claimants, with room for its other columns
  const csv = express.text({ type: ['text/csv', 'text/plain'], limit: '10mb' })

  const assertMaySet = (res: Response, app: string) => {
    assertCanSee(res, app)
    if (!canDecideApp(staffAccountOf(res), app)) {
      throw forbidden("setting awards needs the app's decide right, which an admin grants")
    }
  }
  const appOf = (req: Request) => findFormOrThrow(forms, String(req.params.slug)).slug
  const by = (req: Request, res: Response): AwardActor => {
    const { clientAddress, accountId, actor } = actorOf(req, res)
    return { clientAddress, accountId: accountId!, actor: actor! }
  }

  router.put('/api/staff/claims/:id/award', json, async (req, res) => {
    const claim = await visibleClaim(db, res, String(req.params.id))
    assertMaySet(res, claim.app)
    const { amount, costs } = (req.body ?? {}) as { amount?: unknown; costs?: unknown }
    const award: AwardSet = await setAward(db, {
      claimId: claim.id,
      app: claim.app,
      cents: awardCents(amount, '"amount"'),
      ...(costs === undefined ? {} : { costsCents: costsCents(costs) }),
      review: reviews(claim.app),
      evidenceKey,
      by: by(req, res),
    })
    res.json(award)
  })

  // costs are the firm's money as much as the award's: a payments account enters them too
  router.put('/api/staff/claims/:id/award/costs', json, async (req, res) => {
    const claim = await visibleClaim(db, res, String(req.params.id))
    assertCanSee(res, claim.app)
    const account = staffAccountOf(res)
    if (!canDecideApp(account, claim.app) && !canPayApp(account, claim.app)) {
      throw forbidden(
        "the costs advanced on an award need the app's decide or payments right, which an admin grants",
      )
    }
    const { costs } = (req.body ?? {}) as { costs?: unknown }
    const award: AwardSet = await setAwardCosts(db, {
      claimId: claim.id,
      app: claim.app,
      costsCents: costsCents(costs),
      evidenceKey,
      by: by(req, res),
    })
    res.json(award)
  })

  router.post('/api/staff/apps/:slug/awards/import', csv, async (req, res) => {
    const app = appOf(req)
    assertMaySet(res, app)
    if (typeof req.body !== 'string') throw badRequest('send the award file as text/csv')
    const imported: AwardsImported = await importAwards(db, {
      app,
      text: req.body,
      review: reviews(app),
      evidenceKey,
      by: by(req, res),
    })
    res.json(imported)
  })

  router.post('/api/staff/apps/:slug/settlements', json, async (req, res) => {
    const app = appOf(req)
    assertMaySet(res, app)
    const body = (req.body ?? {}) as Record<string, unknown>
    const created: SettlementCreated = await createSettlement(db, {
      app,
      name: parseName(body.name),
      totalCents: awardCents(body.total, '"total"'),
      rule: parseRule(body.rule),
      claimIds: parseClaimIds(body.claimIds),
      review: reviews(app),
      evidenceKey,
      by: by(req, res),
    })
    res.status(201).json(created)
  })

  router.get('/api/staff/apps/:slug/awards', async (req, res) => {
    const app = appOf(req)
    assertCanSee(res, app)
    const account = staffAccountOf(res)
    if (!canDecideApp(account, app) && !canPayApp(account, app)) {
      throw forbidden("the awards list needs the app's decide or payments right, which an admin grants")
    }
    const list: AwardList = await listAwards(db, {
      app,
      page: wholeNumber(req.query.page, { name: 'page', fallback: 1, max: Number.MAX_SAFE_INTEGER }),
      pageSize: wholeNumber(req.query.pageSize, {
        name: 'pageSize',
        fallback: 100,
        max: MAX_AWARD_PAGE_SIZE,
      }),
    })
    res.set('Cache-Control', NO_STORE).json(list)
  })

  return router
}

/** A typed dollar amount above $0.00 in cents; 400 naming the field and what is wrong with it. */
function awardCents(value: unknown, name: string): number {
  if (typeof value !== 'string')
    throw badRequest(`${name} must be a dollar amount written as text, like "1,234.56"`)
  let cents: number
  try {
    cents = parseCents(value, name)
  } catch (error) {
    // the same fault in an award file is a 400 of the file: one answer for one mistake
    if (error instanceof AppError) throw badRequest(error.message)
    throw error
  }
  if (cents === 0) throw badRequest(`${name} is $0.00: an award is more than nothing`)
  return cents
}

/** Typed costs advanced on a claim, in cents ("" is none); 422 naming "costs" and what is wrong. */
function costsCents(value: unknown): number {
  if (typeof value !== 'string') {
    throw new AppError('VALIDATION_FAILED', {
      status: 422,
      message: '"costs" must be a dollar amount written as text, like "75.00" ("" or "0" for none)',
    })
  }
  // parseCents refuses a negative, unreadable or over-precise amount with a 422 that names the field
  return value.trim() === '' ? 0 : parseCents(value, '"costs"')
}

function parseName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : ''
  if (name === '' || name.length > MAX_SETTLEMENT_NAME) {
    throw badRequest(`"name" must name the settlement, 1 to ${MAX_SETTLEMENT_NAME} characters`)
  }
  return name
}

function parseRule(value: unknown): 'equal' | 'cashAdvanceCount' {
  if (value !== 'equal' && value !== 'cashAdvanceCount') {
    throw badRequest('"rule" must be "equal" or "cashAdvanceCount"')
  }
  return value
}

function parseClaimIds(value: unknown): number[] | undefined {
  if (value === undefined) return undefined
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_SETTLEMENT_CLAIMS ||
    !value.every((id) => Number.isSafeInteger(id) && (id as number) > 0)
  ) {
    throw badRequest(
      `"claimIds" must list 1 to ${MAX_SETTLEMENT_CLAIMS.toLocaleString('en-US')} claim ids, or be left out for every filed claim`,
    )
  }
  const ids = value as number[]
  const seen = new Set<number>()
  const repeated = new Set<number>()
  for (const id of ids) (seen.has(id) ? repeated : seen).add(id)
  if (repeated.size > 0) throw badRequest(`"claimIds" lists claim ${[...repeated].join(', ')} twice`)
  return ids
}

function wholeNumber(
  value: unknown,
  { name, fallback, max }: { name: string; fallback: number; max: number },
) {
  if (value === undefined) return fallback
  const text = typeof value === 'string' ? value : ''
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw badRequest(`"${name}" must be a whole number from 1 to ${max.toLocaleString('en-US')}`)
  }
  return Number(text)
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}

function forbidden(message: string): AppError {
  return new AppError('FORBIDDEN', { status: 403, message })
}
