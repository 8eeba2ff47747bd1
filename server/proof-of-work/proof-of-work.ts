import crypto from 'node:crypto'
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1'
import type { Kysely } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  PROOF_OF_WORK_EXPIRED_MESSAGE,
  PROOF_OF_WORK_INVALID_MESSAGE,
  PROOF_OF_WORK_LIFETIME_MS,
  PROOF_OF_WORK_MISSING_MESSAGE,
  PROOF_OF_WORK_USED_MESSAGE,
  type ProofOfWorkChallenge,
  type ProofOfWorkPayload,
} from '../../src/proof-of-work.ts'
import type { Translator } from '../../src/translate.ts'
import type { Database } from '../db/database.ts'

/**
 * The secret number's range: a browser tries half of it on average, under a second in Chromium with
 * its CPU slowed 4x, as a phone's is (BENCHMARKS.md, npm run bench:proof-of-work).
 */
export const PROOF_OF_WORK_MAX_NUMBER = 400_000

export interface ProofOfWorkTuning {
  maxNumber: number
  lifetimeMs: number
  now: () => number
}

export interface ProofOfWork {
  /** A fresh challenge, signed with the key every server process over the database shares. */
  challenge(): Promise<ProofOfWorkChallenge>
  /** Accepts the header's solved challenge once, or throws the 4xx a bot gets. */
  spend(header: string | undefined, t: Translator): Promise<void>
}

const PRUNE_EVERY_MS = 60 * 1000

/**
 * The proof-of-work check (PROOF_OF_WORK). Its HMAC key is a random one stored in the database on
 * first use, so every process over one database signs and checks alike, restarts keep it, and a firm
 * sets nothing: it guards against floods, not secrets, so it need not live apart like the evidence key.
 */
export function createProofOfWork(
  db: Kysely<Database>,
  tuning: Partial<ProofOfWorkTuning> = {},
): ProofOfWork {
  const {
    maxNumber = PROOF_OF_WORK_MAX_NUMBER,
    lifetimeMs = PROOF_OF_WORK_LIFETIME_MS,
    now = Date.now,
  } = tuning
  let key: Promise<string> | undefined
  const keyOf = () => {
    key ??= loadKey(db).catch((error: unknown) => {
      key = undefined
      throw error
    })
    return key
  }
  let prunedAt = 0

  return {
    async challenge() {
      const challenge = await createChallenge({
        algorithm: 'SHA-256',
        hmacKey: await keyOf(),
        maxNumber,
        expires: new Date(now() + lifetimeMs),
      })
      return { ...challenge, algorithm: 'SHA-256', maxnumber: maxNumber }
    },

    async spend(header, t) {
      if (!header?.trim()) throw refusal('PROOF_OF_WORK_MISSING', 400, t(PROOF_OF_WORK_MISSING_MESSAGE))
      const payload = parsePayload(header.trim())
      if (!payload || !(await verifySolution(payload, await keyOf(), false))) {
        throw refusal('PROOF_OF_WORK_INVALID', 400, t(PROOF_OF_WORK_INVALID_MESSAGE))
      }
      // every challenge this server signs carries its expiry: one without is refused, fail-closed
      const expiresAt = Number(extractParams(payload).expires) * 1000
      if (!Number.isFinite(expiresAt)) {
        throw refusal('PROOF_OF_WORK_INVALID', 400, t(PROOF_OF_WORK_INVALID_MESSAGE))
      }
      const at = now()
      if (expiresAt <= at) throw refusal('PROOF_OF_WORK_EXPIRED', 400, t(PROOF_OF_WORK_EXPIRED_MESSAGE))
      const spent = await db
        .insertInto('proof_of_work_spent')
        .values({ challenge: payload.challenge, expires_at: expiresAt })
        .onConflict((conflict) => conflict.column('challenge').doNothing())
        .executeTakeFirst()
      if (Number(spent.numInsertedOrUpdatedRows ?? 0) === 0) {
        throw refusal('PROOF_OF_WORK_USED', 409, t(PROOF_OF_WORK_USED_MESSAGE))
      }
      if (at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at
        // an expired challenge is refused before its spent row is looked at, so the row can go
        await db.deleteFrom('proof_of_work_spent').where('expires_at', '<=', at).execute()
      }
    },
  }
}

async function loadKey(db: Kysely<Database>): Promise<string> {
  // insert-if-absent, then read: two processes starting together end up with the same key
  await db
    .insertInto('proof_of_work_keys')
    .values({ id: 1, hmac_key: crypto.randomBytes(32).toString('hex'), created_at: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute()
  const row = await db
    .selectFrom('proof_of_work_keys')
    .select('hmac_key')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow()
  return row.hmac_key
}

/** ALTCHA's payload, or undefined when the header is not one (base64 of a JSON object of its shape). */
function parsePayload(text: string): ProofOfWorkPayload | undefined {
  if (text.length > 1000 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(text, 'base64').toString('utf8'))
  } catch {
    return undefined
  }
  const payload = value as Partial<Record<keyof ProofOfWorkPayload, unknown>> | null
  if (
    typeof payload !== 'object' ||
    payload === null ||
    payload.algorithm !== 'SHA-256' ||
    typeof payload.challenge !== 'string' ||
    !/^[0-9a-f]{64}$/.test(payload.challenge) ||
    typeof payload.signature !== 'string' ||
    !/^[0-9a-f]{64}$/.test(payload.signature) ||
    typeof payload.salt !== 'string' ||
    payload.salt.length > 200 ||
    typeof payload.number !== 'number' ||
    !Number.isSafeInteger(payload.number) ||
    payload.number < 0
  ) {
    return undefined
  }
  return payload as ProofOfWorkPayload
}

function refusal(
  code: 'PROOF_OF_WORK_MISSING' | 'PROOF_OF_WORK_INVALID' | 'PROOF_OF_WORK_USED' | 'PROOF_OF_WORK_EXPIRED',
  status: number,
  message: string,
): AppError {
  return new AppError(code, { status, message })
}
