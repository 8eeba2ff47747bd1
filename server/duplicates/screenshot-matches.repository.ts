import { sql, type Kysely, type Transaction } from 'kysely'
import type { Database } from '../db/database.ts'
import { bandProbes, BAND_COUNT, hashBands, NEAR_DISTANCE } from './screenshot-bands.ts'
import { isNearCopy, windowsDistance } from './near-copy.ts'
import { HASH_BITS, hashDistance, type ScreenshotFingerprint } from './screenshot-fingerprint.ts'

/** The claim a check is about: its file, and who filed it. */
export interface CheckedClaim {
  id: number
  screenshotKey: string
  /** As received, in the claim's seal; '' on claims from before it was kept. */
  screenshotSha256: string
  phoneNumber: string
  email: string
}

/** Another claimant's claim whose screenshot is this one's, exactly or nearly. */
export interface FoundMatch {
  otherClaimId: number
  kind: 'exact' | 'near'
  distance: number
}

// a screenshot shared by a crowd would otherwise add pairs by the square of the crowd
export const MAX_MATCHES_PER_CLAIM = 20
// the most band candidates read for one claim: a crowd of near-identical screenshots (one picture sent by
// thousands) could otherwise make one check read them all; a crowd that large is flagged anyway
const MAX_CANDIDATES = 50_000

/**
 * Queues a claim's check again once a cure has replaced its screenshot, in the cure's transaction: a
 * claim rejected as a duplicate must not get past the check with another claimant's screenshot.
 */
export async function queueScreenshotCheck(trx: Transaction<Database>, claimId: number): Promise<void> {
  await trx
    .insertInto('screenshot_checks')
    .values({ claim_id: claimId, due_at: 0 })
    .onConflict((conflict) => conflict.column('claim_id').doUpdateSet({ due_at: 0, attempts: 0 }))
    .execute()
}

/** The claim a check is about, with its newest screenshot: a cure's, when one replaced the claim's. */
export async function findCheckedClaim(db: Kysely<Database>, id: number): Promise<CheckedClaim | undefined> {
  const row = await db
    .selectFrom('claims')
    .select(['id', 'screenshot_key', 'screenshot_sha256', 'phone_number', 'email'])
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return undefined
  const amended = await db
    .selectFrom('claim_amendments')
    .select(['screenshot_key', 'screenshot_sha256'])
    .where('claim_id', '=', id)
    .where('screenshot_key', 'is not', null)
    .orderBy('id', 'desc')
    .executeTakeFirst()
  return {
    id: Number(row.id),
    screenshotKey: amended?.screenshot_key ?? row.screenshot_key,
    screenshotSha256: amended ? (amended.screenshot_sha256 ?? '') : row.screenshot_sha256,
    phoneNumber: row.phone_number,
    email: row.email,
  }
}

/** The perceptual hashes already made of these exact bytes for another claim, so the file need not be decoded again. */
export async function findKnownHashes(
  db: Kysely<Database>,
  sha256: string,
): Promise<ScreenshotFingerprint | undefined> {
  if (!sha256) return undefined
  const row = await db
    .selectFrom('screenshot_hashes')
    .select('perceptual_hash')
    .where('sha256', '=', sha256)
    .where('status', '=', 'hashed')
    .limit(1)
    .executeTakeFirst()
  if (!row) return undefined
  const hashes = parseStoredHashes(row.perceptual_hash)
  // hashes stored before the fine ones were made (or with other crops) are made again from the file
  if (hashes.perceptualHashes && !hashes.fineHashes) return undefined
  return { sha256, ...hashes }
}

/**
 * screenshot_hashes.perceptual_hash holds the coarse hashes and then the fine ones, told apart by their
 * length; a row from before the fine hashes were made holds the coarse ones only.
 */
function parseStoredHashes(
  stored: string | null,
): Pick<ScreenshotFingerprint, 'perceptualHashes' | 'fineHashes'> {
  if (!stored) return { perceptualHashes: undefined, fineHashes: undefined }
  const hashes = stored.split(' ')
  const fineHashes = hashes.filter((hash) => hash.length > HASH_BITS / 4)
  return {
    perceptualHashes: hashes.filter((hash) => hash.length === HASH_BITS / 4),
    fineHashes: fineHashes.length > 0 ? fineHashes : undefined,
  }
}

/**
 * Other claimants' claims with the same bytes or a near picture: a near pair compares the whole
 * picture of one with any of the other's hashes (whole or cropped). The same person (the same phone
 * digits or e-mail) filing for two apps is not a match.
 */
export async function findMatches(
  db: Kysely<Database>,
  { claim, fingerprint }: { claim: CheckedClaim; fingerprint: ScreenshotFingerprint },
): Promise<FoundMatch[]> {
  const found = new Map<number, FoundMatch>()
  const isSameClaimant = (other: { phone_number: string; email: string }) =>
    digits(other.phone_number) === digits(claim.phoneNumber) ||
    other.email.toLowerCase() === claim.email.toLowerCase()
  const exact = await db
    .selectFrom('screenshot_hashes')
    .innerJoin('claims', 'claims.id', 'screenshot_hashes.claim_id')
    .select(['claims.id', 'claims.phone_number', 'claims.email'])
    .where('screenshot_hashes.sha256', '=', fingerprint.sha256)
    .where('claims.id', '<>', claim.id)
    .orderBy('claims.id', 'desc')
    .limit(MAX_MATCHES_PER_CLAIM * 4)
    .execute()
  for (const other of exact) {
    if (!isSameClaimant(other))
      found.set(Number(other.id), { otherClaimId: Number(other.id), kind: 'exact', distance: 0 })
  }
  const hashes = fingerprint.perceptualHashes
  if (hashes) {
    const [whole, ...crops] = hashes.map(bandProbes)
    // the candidates' hashes alone (no join): most are the same app's other screenshots, and fall away.
    // The whole picture is compared with every stored hash, a crop of it with stored whole pictures only.
    const candidates = await db
      .selectFrom('screenshot_hash_bands')
      .select(['claim_id', 'variant', 'hash'])
      .where('claim_id', '<>', claim.id)
      .where((eb) =>
        eb.or(
          Array.from({ length: BAND_COUNT }, (_, band) => [
            eb(sql.ref(`band${band}`), 'in', whole![band]!),
            eb.and([
              eb(sql.ref(`band${band}`), 'in', [...new Set(crops.flatMap((perCrop) => perCrop[band]!))]),
              eb('variant', '=', 0),
            ]),
          ]).flat(),
        ),
      )
      .limit(MAX_CANDIDATES)
      .execute()
    const near = new Map<number, number>()
    for (const candidate of candidates) {
      const id = Number(candidate.claim_id)
      if (found.has(id)) continue
      for (const [variant, hash] of hashes.entries()) {
        if (variant !== 0 && candidate.variant !== 0) continue
        const distance = hashDistance(hash, candidate.hash)
        if (distance <= NEAR_DISTANCE && distance < (near.get(id) ?? Infinity)) near.set(id, distance)
      }
    }
    if (near.size > 0) {
      const others = await db
        .selectFrom('claims')
        .leftJoin('screenshot_hashes', 'screenshot_hashes.claim_id', 'claims.id')
        .select(['claims.id', 'claims.phone_number', 'claims.email', 'screenshot_hashes.perceptual_hash'])
        .where('claims.id', 'in', [...near.keys()])
        .execute()
      for (const other of others) {
        const id = Number(other.id)
        if (isSameClaimant(other)) continue
        const { fineHashes } = parseStoredHashes(other.perceptual_hash)
        const hasFine = fineHashes !== undefined && fingerprint.fineHashes !== undefined
        const fine = hasFine ? windowsDistance(fingerprint.fineHashes!, fineHashes) : Infinity
        if (isNearCopy({ coarse: near.get(id)!, fine }, hasFine)) {
          found.set(id, { otherClaimId: id, kind: 'near', distance: near.get(id)! })
        }
      }
    }
  }
  return [...found.values()]
    .sort((a, b) => a.distance - b.distance || b.otherClaimId - a.otherClaimId)
    .slice(0, MAX_MATCHES_PER_CLAIM)
}

/** The check's outcome, all or nothing: the hashes, their bands, each match both ways, and the queue entry gone. */
export async function recordCheck(
  db: Kysely<Database>,
  {
    claimId,
    fingerprint,
    matches,
  }: { claimId: number; fingerprint: ScreenshotFingerprint | undefined; matches: FoundMatch[] },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // the claim may have been purged meanwhile: then there is nothing to record
    const queued = await trx
      .deleteFrom('screenshot_checks')
      .where('claim_id', '=', claimId)
      .executeTakeFirst()
    if (Number(queued.numDeletedRows) === 0) return
    // a claim checked again (its screenshot replaced by a cure) is matched from now on by its new one
    await trx.deleteFrom('screenshot_hash_bands').where('claim_id', '=', claimId).execute()
    await trx.deleteFrom('screenshot_hashes').where('claim_id', '=', claimId).execute()
    await trx
      .insertInto('screenshot_hashes')
      .values({
        claim_id: claimId,
        status: fingerprint ? 'hashed' : 'unreadable',
        sha256: fingerprint?.sha256 ?? null,
        perceptual_hash: fingerprint?.perceptualHashes
          ? [...fingerprint.perceptualHashes, ...(fingerprint.fineHashes ?? [])].join(' ')
          : null,
        checked_at: Date.now(),
      })
      .onConflict((conflict) => conflict.column('claim_id').doNothing())
      .execute()
    const hashes = fingerprint?.perceptualHashes ?? []
    if (hashes.length > 0) {
      await trx
        .insertInto('screenshot_hash_bands')
        .values(
          hashes.map((hash, variant) => ({
            claim_id: claimId,
            variant,
            hash,
            ...Object.fromEntries(hashBands(hash).map((band, index) => [`band${index}`, band])),
          })) as never,
        )
        .onConflict((conflict) => conflict.columns(['claim_id', 'variant']).doNothing())
        .execute()
    }
    if (matches.length > 0) {
      await trx
        .insertInto('screenshot_matches')
        .values(
          matches.flatMap(({ otherClaimId, kind, distance }) => [
            { claim_id: claimId, other_claim_id: otherClaimId, kind, distance },
            { claim_id: otherClaimId, other_claim_id: claimId, kind, distance },
          ]),
        )
        .onConflict((conflict) => conflict.columns(['claim_id', 'other_claim_id']).doNothing())
        .execute()
    }
  })
}

/** One claim's match, for the dashboards. */
export interface MatchOf {
  id: number
  app: string
  kind: 'exact' | 'near'
  /** Coarse-hash bits apart: 0 for the same file. */
  distance: number
}

/**
 * The matches of these claims, for the dashboards: each with the other claim's app, surest first (the
 * same file, then the fewest bits apart, then the newest claim).
 */
export async function findMatchesOf(
  db: Kysely<Database>,
  claimIds: number[],
): Promise<Map<number, MatchOf[]>> {
  const byClaim = new Map<number, MatchOf[]>()
  if (claimIds.length === 0) return byClaim
  const rows = await db
    .selectFrom('screenshot_matches')
    .innerJoin('claims', 'claims.id', 'screenshot_matches.other_claim_id')
    .select([
      'screenshot_matches.claim_id',
      'claims.id',
      'claims.app',
      'screenshot_matches.kind',
      'screenshot_matches.distance',
    ])
    .where('screenshot_matches.claim_id', 'in', claimIds)
    .orderBy('screenshot_matches.claim_id')
    // 'exact' sorts before 'near'
    .orderBy('screenshot_matches.kind')
    .orderBy('screenshot_matches.distance')
    .orderBy('claims.id', 'desc')
    .execute()
  for (const row of rows) {
    const list = byClaim.get(Number(row.claim_id)) ?? []
    const kind = row.kind === 'exact' ? 'exact' : 'near'
    list.push({
      id: Number(row.id),
      app: row.app,
      kind,
      distance: kind === 'exact' ? 0 : Number(row.distance),
    })
    byClaim.set(Number(row.claim_id), list)
  }
  return byClaim
}

function digits(phone: string): string {
  return phone.replace(/\D/g, '')
}
