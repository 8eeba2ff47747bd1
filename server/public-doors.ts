import type { Request, RequestHandler } from 'express'
import type { Kysely } from 'kysely'
import { AppError } from '../src/app-error.ts'
import { PUBLIC_BUSY_MESSAGE, PUBLIC_RATE_LIMITED_MESSAGE } from '../src/public-limit-messages.ts'
import { translator, type Locale, type Translator } from '../src/translate.ts'
import { clientAddress } from './client-address.ts'
import type { Database } from './db/database.ts'
import { requestLocale } from './platform/request-locale.ts'
import { isSameSite } from './public-origin.ts'
import { hitRateLimit, sharedCeiling, type RateLimitRule } from './rate-limit.ts'
import { PROOF_OF_WORK_HEADER } from '../src/proof-of-work.ts'
import { LOOKUP_RATE_LIMITED_MESSAGE } from '../src/lookup-messages.ts'
import type { ProofOfWork } from './proof-of-work/proof-of-work.ts'

/** The public forms that POST: each counts apart per address; all of them count towards the ceiling. */
export type PublicDoor =
  'claim' | 'intake' | 'lookup' | 'download' | 'open' | 'confirm' | 'cure' | 'prefill' | 'unsubscribe'

/** PUBLIC_LIMIT_PER_ADDRESS and PUBLIC_LIMIT_GLOBAL (config.ts). */
export interface PublicLimits {
  /** POSTs per 15 minutes per client address (an IPv6 one's /64) and door. */
  perAddress: number
  /** POSTs per minute across every address and door. */
  globalPerMinute: number
}

const FIFTEEN_MINUTES = 15 * 60 * 1000
// the download's own limit (agreement.routes.ts) counts the files a download key fetches, not a form
const PER_ADDRESS_RULE_NAMES: Record<Exclude<PublicDoor, 'download'>, string> = {
  claim: 'public-claim',
  intake: 'public-intake',
  lookup: 'agreement-lookup',
  open: 'public-open',
  confirm: 'public-confirm',
  cure: 'public-cure',
  prefill: 'public-prefill',
  unsubscribe: 'public-unsubscribe',
}
const ONE_MINUTE = 60 * 1000

/**
 * What every public POST passes first, before its body is read: a browser's request from another site
 * is refused (403); with `proofOfWork`, a claim, intake or lookup without a fresh solved challenge is
 * refused (4xx, proof-of-work.ts) before anything is counted; then the POST is counted per client
 * address and kind of form, and only if that lets it through, against the ceiling across all of them,
 * in the database so every server process shares the counts (429 with Retry-After past either; the
 * ceiling is synced once a second, sharedCeiling). The download keeps its own per-address limit (agreement.routes.ts) instead.
 */
export function guardPublicPost({
  db,
  door,
  limits,
  proofOfWork,
  translators = () => translator(undefined),
}: {
  db: Kysely<Database>
  door: PublicDoor
  limits: PublicLimits
  /** Unset: PROOF_OF_WORK=off. */
  proofOfWork?: ProofOfWork | undefined
  translators?: (locale: Locale) => Translator
}): RequestHandler {
  const perAddress: RateLimitRule | undefined =
    door === 'download'
      ? undefined
      : {
          name: PER_ADDRESS_RULE_NAMES[door],
          limit: limits.perAddress,
          windowMs: FIFTEEN_MINUTES,
          message: '',
        }
  const global = ceilingOf(db, limits.globalPerMinute)
  // the forms a bot would fill in; opening a link, downloading with its key, confirming and curing each
  // need a secret that only an e-mail sent after a checked form gives
  const proof = door === 'claim' || door === 'intake' || door === 'lookup' ? proofOfWork : undefined
  return async (req, _res, next) => {
    assertSameSiteOrNoOrigin(req)
    const t = translators(requestLocale(req))
    if (proof) await proof.spend(req.get(PROOF_OF_WORK_HEADER), t)
    const own = perAddress
      ? await hitRateLimit(db, { rule: perAddress, client: clientAddress(req) })
      : undefined
    if (own && !own.allowed) {
      const message =
        door === 'lookup'
          ? t(LOOKUP_RATE_LIMITED_MESSAGE)
          : t(PUBLIC_RATE_LIMITED_MESSAGE, { minutes: Math.ceil(own.retryAfterSeconds / 60) })
      throw tooMany(message, own)
    }
    // only what its address may send counts toward the ceiling: else one address past its own limit
    // could use up everyone's
    const all = await global()
    if (!all.allowed) throw tooMany(t(PUBLIC_BUSY_MESSAGE), all)
    next()
  }
}

/** One ceiling per database and limit, shared by every door: all public POSTs count together. */
const ceilings = new WeakMap<Kysely<Database>, Map<number, ReturnType<typeof sharedCeiling>>>()

function ceilingOf(db: Kysely<Database>, limit: number): ReturnType<typeof sharedCeiling> {
  let byLimit = ceilings.get(db)
  if (!byLimit) ceilings.set(db, (byLimit = new Map()))
  let ceiling = byLimit.get(limit)
  if (!ceiling)
    byLimit.set(limit, (ceiling = sharedCeiling(db, { name: 'public-all', limit, windowMs: ONE_MINUTE })))
  return ceiling
}

function tooMany(message: string, { retryAfterSeconds }: { retryAfterSeconds: number }): AppError {
  return new AppError('RATE_LIMITED', {
    status: 429,
    message,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  })
}

/**
 * A browser names the page that sent a POST in its Origin header: one from another site (or 'null', a
 * sandboxed frame or a file) is refused, so no other site can file claims from its visitors' browsers
 * and make their address and browser "signer" evidence. No Origin at all (curl, a script) is let
 * through: the limits above still count it.
 */
function assertSameSiteOrNoOrigin(req: Request): void {
  const origin = req.get('origin')
  if (origin === undefined || isSameSite(req, origin)) return
  throw new AppError('CROSS_SITE_REQUEST', {
    status: 403,
    message: `this form takes submissions from its own site only, not from ${JSON.stringify(origin)}`,
  })
}
