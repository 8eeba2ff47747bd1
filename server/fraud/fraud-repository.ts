import type { Kysely, Transaction } from 'kysely'
import type { FraudReason } from '../../src/fraud-config.ts'
import { parseStoredSignals } from '../../src/form-signals.ts'
import { DAY_MS } from '../../src/durations.ts'
import type { Database } from '../db/database.ts'
import { addressKey, identityOf, mailboxOf, networkOf } from './identity-keys.ts'
import { KEY_KINDS, type KeyKind, type Neighbour, type ScoredClaim } from './fraud-tests.ts'

/** Neighbours read per key: a key shared wider than this is a ring whatever the rest holds. */
const NEIGHBOURS_PER_KEY = 200

/** A claim as the scoring reads it, its screenshot's facts left to the caller; undefined once purged. */
export async function loadScoredClaim(
  db: Kysely<Database>,
  claimId: number,
): Promise<(Omit<ScoredClaim, 'screenshot'> & { app: string; screenshotKey: string }) | undefined> {
  const claim = await db
    .selectFrom('claims')
    .leftJoin('agreement_records', 'agreement_records.claim_id', 'claims.id')
    .leftJoin('form_submissions', 'form_submissions.id', 'claims.intake_id')
    .select([
      'claims.id',
      'claims.app',
      'claims.created_at',
      'claims.first_name',
      'claims.last_name',
      'claims.email',
      'claims.phone_number',
      'claims.signals',
      'claims.screenshot_key',
      'agreement_records.ip_address',
      'form_submissions.signals as intake_signals',
      'form_submissions.ip_address as intake_ip',
      'form_submissions.address',
      'form_submissions.address_line_2',
      'form_submissions.zip_code',
    ])
    .where('claims.id', '=', claimId)
    .executeTakeFirst()
  if (!claim) return undefined
  const [matches, lists] = await Promise.all([
    db.selectFrom('screenshot_matches').select('other_claim_id').where('claim_id', '=', claimId).execute(),
    db.selectFrom('respondent_flags').select('list').where('claim_id', '=', claimId).execute(),
  ])
  const signals = parseStoredSignals(claim.signals)
  const intakeSignals = parseStoredSignals(claim.intake_signals)
  const address =
    claim.address && claim.zip_code
      ? addressKey({ street: claim.address, line2: claim.address_line_2, zipCode: claim.zip_code })
      : undefined
  const keys: ScoredClaim['keys'] = {
    device: unique([signals.device, intakeSignals.device]),
    network: unique([claim.ip_address, claim.intake_ip].map((ip) => (ip ? networkOf(ip) : undefined))),
    email: [mailboxOf(claim.email)],
    phone: [claim.phone_number],
    address: unique([address]),
  }
  return {
    id: Number(claim.id),
    app: claim.app,
    at: new Date(claim.created_at).getTime(),
    firstName: claim.first_name,
    lastName: claim.last_name,
    email: claim.email,
    phone: claim.phone_number,
    identity: identityOf(claim.first_name, claim.last_name),
    mailbox: mailboxOf(claim.email),
    // the Step 2 form's own signals; a claim from a client that sent none is read by its main form's
    signals: claim.signals ? signals : intakeSignals,
    keys,
    screenshotKey: claim.screenshot_key,
    screenshotMatches: matches.map((match) => Number(match.other_claim_id)),
    respondentLists: lists.map((flag) => flag.list),
  }
}

function unique(values: (string | undefined | null)[]): string[] {
  return [...new Set(values.filter((value): value is string => typeof value === 'string' && value !== ''))]
}

/**
 * The other claims filed under the claim's keys: for a network those of the day around it (its counts
 * are per hour and per day, and a carrier's network is shared by strangers every day), for the others
 * any, a device's too (a ring that spreads its claims over weeks shares one browser all the same); at
 * most NEIGHBOURS_PER_KEY a key. The address's and the device's neighbours come with their names,
 * mailbox and phone.
 */
export async function neighboursOf(
  db: Kysely<Database>,
  claim: Pick<ScoredClaim, 'id' | 'at' | 'keys'>,
): Promise<Neighbour[]> {
  const found: Neighbour[] = []
  for (const kind of KEY_KINDS) {
    for (const value of claim.keys[kind] ?? []) {
      let query = db
        .selectFrom('fraud_keys')
        .select(['fraud_keys.claim_id', 'fraud_keys.identity', 'fraud_keys.at'])
        .where('fraud_keys.kind', '=', kind)
        .where('fraud_keys.value', '=', value)
        .where('fraud_keys.claim_id', '<>', claim.id)
      if (kind === 'network') {
        query = query
          .where('fraud_keys.at', '>=', claim.at - DAY_MS)
          .where('fraud_keys.at', '<=', claim.at + DAY_MS)
      }
      if (kind !== 'address' && kind !== 'device') {
        const rows = await query.limit(NEIGHBOURS_PER_KEY).execute()
        for (const row of rows) {
          found.push({ claimId: Number(row.claim_id), kind, identity: row.identity, at: Number(row.at) })
        }
        continue
      }
      // only an address's and a device's neighbours are read with their claims' names, e-mail and phone
      // (the near duplicate): a carrier's network has its 200 every day, each a row of claims to look up
      const rows = await query
        .innerJoin('claims', 'claims.id', 'fraud_keys.claim_id')
        .select(['claims.first_name', 'claims.last_name', 'claims.email', 'claims.phone_number'])
        .limit(NEIGHBOURS_PER_KEY)
        .execute()
      for (const row of rows) {
        found.push({
          claimId: Number(row.claim_id),
          kind,
          identity: row.identity,
          at: Number(row.at),
          firstName: row.first_name,
          lastName: row.last_name,
          mailbox: mailboxOf(row.email),
          phone: row.phone_number,
        })
      }
    }
  }
  // a claim shares a device or network with itself through its main form: counted once per kind
  const seen = new Set<string>()
  return found.filter((n) => {
    const id = `${n.kind}:${n.claimId}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}

/** Files the claim under its keys (once: a claim scored again keeps its rows). */
export async function fileKeys(
  trx: Transaction<Database>,
  claim: Pick<ScoredClaim, 'id' | 'at' | 'keys' | 'identity'>,
): Promise<void> {
  const rows = KEY_KINDS.flatMap((kind: KeyKind) =>
    (claim.keys[kind] ?? []).map((value) => ({
      kind,
      value,
      claim_id: claim.id,
      at: claim.at,
      identity: claim.identity,
    })),
  )
  if (rows.length === 0) return
  await trx
    .insertInto('fraud_keys')
    .values(rows)
    .onConflict((conflict) => conflict.columns(['kind', 'value', 'claim_id']).doNothing())
    .execute()
}

/** Stores a claim's score and reasons: the claims row (for the list), the job row, one row per reason. */
export async function saveScore(
  trx: Transaction<Database>,
  { claimId, score, reasons, now }: { claimId: number; score: number; reasons: FraudReason[]; now: number },
): Promise<void> {
  await trx.updateTable('claims').set({ fraud_score: score }).where('id', '=', claimId).execute()
  await trx
    .updateTable('fraud_scores')
    .set({ reasons: JSON.stringify(reasons), scored_at: now })
    .where('claim_id', '=', claimId)
    .execute()
  await trx.deleteFrom('fraud_reasons').where('claim_id', '=', claimId).execute()
  if (reasons.length > 0) {
    await trx
      .insertInto('fraud_reasons')
      .values(reasons.map((reason) => ({ claim_id: claimId, code: reason.code, points: reason.points })))
      .execute()
  }
}

/**
 * Makes the claims related through a new claim's device, e-mail, phone or address due for scoring again
 * (a ring grows): each already scored and not due; a network alone is too wide to wake its claims.
 */
export async function wakeRelated(
  trx: Kysely<Database> | Transaction<Database>,
  { related, now }: { related: number[]; now: number },
): Promise<void> {
  if (related.length === 0) return
  await trx
    .updateTable('fraud_scores')
    .set({ due_at: now })
    .where('claim_id', 'in', [...new Set(related)])
    .where('due_at', 'is', null)
    .execute()
}

/** Scores these claims again (a duplicate found, a company's list imported, a decision taken). */
export function wakeScores(
  db: Kysely<Database> | Transaction<Database>,
  claimIds: number[],
  now = Date.now(),
) {
  return wakeRelated(db, { related: claimIds, now })
}
