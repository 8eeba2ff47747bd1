import type { Express } from 'express'
import request from 'supertest'
import type { CreatedIntake, CreatedStep2Claim } from '../../../src/api/claims.ts'
import { AGREEMENT_DATE_FIELD, DATA_FIELD, SCREENSHOT_FIELD } from '../../../src/api/claim-request.ts'
import { JOURNEY_TOKEN_FIELD } from '../../../src/api/journey.ts'
import { ATTRIBUTION_FIELD } from '../../../src/attribution.ts'
import { allowedMoves, type MoveActor, type ReviewConfig } from '../../../src/review-config.ts'
import { recordMove } from '../../../server/lifecycle/move-claim.ts'
import { makeClaimData, makePng } from './claim-fixtures.ts'
import { ADMIN_EMAIL, type TestContext } from './helpers.ts'

/** The bank-statement screenshot a claim carries when a test names none. */
export const CLAIM_SCREENSHOT = makePng({ width: 40, height: 30 })

export interface ClaimPost {
  /** The form's slug: POST /api/forms/<app>/submissions. */
  app: string
  /** Overrides of makeClaimData's answers (a key set to undefined is left out). */
  fields?: Record<string, unknown>
  /** The whole `data` JSON instead of makeClaimData(fields), for a test of the answers themselves. */
  data?: Record<string, unknown>
  /** The file, or its bytes and name; CLAIM_SCREENSHOT as "statement.png" when left out. */
  screenshot?: Buffer | { content: Buffer; name: string }
  /** The form's language, as `?lang=`; none (English) when left out. */
  lang?: string
  /** The date printed on the agreement; not sent when left out, as the server then takes today. */
  agreementDate?: string
  /** The signature widget's fields (signatureMethod, typedSignature), sent as given. */
  signing?: Record<string, string>
  /** The token of the Step 2 link the claimant came by. */
  journeyToken?: string
  /** The landing's campaign parameters: an object is sent as JSON, a string as it is. */
  attribution?: unknown
  /** Request headers (Host, User-Agent, X-Forwarded-For…). */
  headers?: Record<string, string>
}

/**
 * Posts a Step 2 claim as the form does (multipart: `data` JSON and the form's other fields, the
 * screenshot last) and gives the request, for a test of the answer itself.
 */
export function postClaim(app: Express, claim: ClaimPost): request.Test {
  const screenshot = Buffer.isBuffer(claim.screenshot)
    ? { content: claim.screenshot, name: 'statement.png' }
    : (claim.screenshot ?? { content: CLAIM_SCREENSHOT, name: 'statement.png' })
  const post = request(app).post(
    `/api/forms/${claim.app}/submissions${claim.lang ? `?lang=${claim.lang}` : ''}`,
  )
  if (claim.headers) void post.set(claim.headers)
  void post.field(DATA_FIELD, JSON.stringify(claim.data ?? makeClaimData(claim.fields)))
  if (claim.agreementDate !== undefined) void post.field(AGREEMENT_DATE_FIELD, claim.agreementDate)
  for (const [name, value] of Object.entries(claim.signing ?? {})) void post.field(name, value)
  if (claim.journeyToken !== undefined) void post.field(JOURNEY_TOKEN_FIELD, claim.journeyToken)
  if (claim.attribution !== undefined) {
    const { attribution } = claim
    void post.field(
      ATTRIBUTION_FIELD,
      typeof attribution === 'string' ? attribution : JSON.stringify(attribution),
    )
  }
  return post.attach(SCREENSHOT_FIELD, screenshot.content, screenshot.name)
}

/** Files a Step 2 claim through the API (see postClaim) and gives the created claim (201). */
export async function fileClaim(ctx: Pick<TestContext, 'app'>, claim: ClaimPost): Promise<CreatedStep2Claim> {
  const res = await postClaim(ctx.app, claim)
  if (res.status !== 201) {
    throw new Error(`filing a ${claim.app} claim answered ${res.status}: ${JSON.stringify(res.body)}`)
  }
  return res.body as CreatedStep2Claim
}

/** The Step 2 link's token an intake gave for an app. */
export function journeyTokenOf(intake: CreatedIntake, app: string): string {
  const step = intake.steps.find((candidate) => candidate.app === app)
  if (!step) throw new Error(`the intake chose no ${app} claim`)
  return step.path.split('#prefill=')[1]!
}

/**
 * A claim filed through the API and moved to `status` by the product's own moves (see moveClaimTo)
 * from the initial status. A move into a status that needs a reason takes `reason`, or the config's
 * first reason without a free text. With `intake`, the claim comes by that intake's Step 2 link.
 */
export async function seedClaim(
  ctx: Pick<TestContext, 'app' | 'db' | 'evidenceKey' | 'reviews'>,
  {
    app,
    status,
    intake,
    reason,
    ...claim
  }: Omit<ClaimPost, 'journeyToken'> & { status: string; intake?: CreatedIntake; reason?: string },
): Promise<{ id: number; version: number }> {
  // a status the config cannot reach is refused before a claim is filed
  const review = ctx.reviews(app)
  movesBetween(review, review.initial, status)
  const { id } = await fileClaim(ctx, {
    app,
    ...claim,
    journeyToken: intake ? journeyTokenOf(intake, app) : undefined,
  })
  return moveClaimTo(ctx, { id, app, status, reason })
}

/**
 * Moves a filed claim from its current status to `status` by the product's own moves (recordMove,
 * each by the actor the app's review config gives the move to, a reviewer with the decide right for
 * staff moves), along the shortest path the config allows. A move into a status that needs a reason
 * takes `reason`, or the config's first reason without a free text. Gives the claim's review version
 * after the moves.
 */
export async function moveClaimTo(
  ctx: Pick<TestContext, 'db' | 'evidenceKey' | 'reviews'>,
  { id, app, status, reason }: { id: number; app: string; status: string; reason?: string },
): Promise<{ id: number; version: number }> {
  const review = ctx.reviews(app)
  const claim = await ctx.db
    .selectFrom('claims')
    .select(['review_status', 'review_version'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  let version = Number(claim.review_version)
  for (const { from, to, mover } of movesBetween(review, claim.review_status, status)) {
    await ctx.db.transaction().execute((trx) =>
      recordMove(trx, {
        evidenceKey: ctx.evidenceKey,
        review,
        claim: { id, app, status: from, version },
        to,
        reason: review.statuses[to]!.needsReason ? (reason ?? defaultReason(review)) : undefined,
        by: { clientAddress: '127.0.0.1', accountId: null, actor: mover === 'staff' ? ADMIN_EMAIL : mover },
        mover,
        mayDecide: true,
      }),
    )
    version += 1
  }
  return { id, version }
}

const MOVERS: MoveActor[] = ['staff', 'claimant', 'system']

/** The shortest run of moves the config allows from `start` to `status` (none when it is there). */
function movesBetween(
  review: ReviewConfig,
  start: string,
  status: string,
): { from: string; to: string; mover: MoveActor }[] {
  const paths = new Map<string, { from: string; to: string; mover: MoveActor }[]>([[start, []]])
  const queue = [start]
  for (let from = queue.shift(); from !== undefined; from = queue.shift()) {
    if (from === status) return paths.get(from)!
    for (const mover of MOVERS) {
      for (const to of allowedMoves(review, from, mover)) {
        if (paths.has(to)) continue
        paths.set(to, [...paths.get(from)!, { from, to, mover }])
        queue.push(to)
      }
    }
  }
  throw new Error(`the review config has no way from ${start} to "${status}"`)
}

function defaultReason(review: ReviewConfig): string {
  const reason = Object.entries(review.reasons).find(([, { freeText }]) => freeText !== true)
  if (!reason) throw new Error('the review config has no reason without a free text')
  return reason[0]
}
