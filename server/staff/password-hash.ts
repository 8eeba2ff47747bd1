import crypto from 'node:crypto'
import { promisify } from 'node:util'
import { MIN_PASSWORD_LENGTH } from '../../src/api/staff-accounts.ts'
import { inScryptQueue } from './scrypt-queue.ts'

const scryptNow = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>

/** Every hash waits its turn (scrypt-queue.ts); a full queue throws 503. */
function scrypt(password: string, salt: Buffer, keyLength: number, options: crypto.ScryptOptions) {
  return inScryptQueue(() => scryptNow(password, salt, keyLength, options))
}

/** log2 of scrypt's N: 17 (128 MiB, about a third of a second here) is today's common recommendation. */
export const DEFAULT_PASSWORD_HASH_COST = 17
const LOWEST_PASSWORD_HASH_COST = 10
const HIGHEST_PASSWORD_HASH_COST = 20

/**
 * PASSWORD_HASH_COST, log2 of scrypt's N (10..20, default 17). Lower than 17 is only for test runs, where
 * hundreds of sign-ins at full cost would take minutes; a stored hash weaker than today's setting is
 * replaced at its next sign-in, so raising it again upgrades every account as its owner signs in.
 */
export function readPasswordHashCost(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.PASSWORD_HASH_COST
  if (text === undefined || text === '') return DEFAULT_PASSWORD_HASH_COST
  const cost = Number(text)
  if (!Number.isInteger(cost) || cost < LOWEST_PASSWORD_HASH_COST || cost > HIGHEST_PASSWORD_HASH_COST) {
    throw new Error(
      `PASSWORD_HASH_COST "${text}" is not a whole number from ${LOWEST_PASSWORD_HASH_COST} to ${HIGHEST_PASSWORD_HASH_COST}`,
    )
  }
  return cost
}

/** PASSWORD_HASH_COST as it is at this hash; readServerConfig refused a bad value at start. */
function hashParams(): { N: number; r: number; p: number } {
  return { N: 2 ** readPasswordHashCost(), r: 8, p: 1 }
}
const KEY_LENGTH = 32
/** scrypt needs 128·N·r bytes; Node refuses past 32 MiB unless told. */
const MAX_MEMORY = 256 * 1024 * 1024

export { MIN_PASSWORD_LENGTH }
/** Past this a password is refused before hashing: scrypt's cost grows with it. */
export const MAX_PASSWORD_LENGTH = 256

/** Why a new password is refused, or undefined when it may be used. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH)
    return `the password must be at least ${MIN_PASSWORD_LENGTH} characters long`
  if (password.length > MAX_PASSWORD_LENGTH)
    return `the password must be at most ${MAX_PASSWORD_LENGTH} characters long`
  return undefined
}

/** scrypt with a random salt, stored as `scrypt$N$r$p$salt$hash`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16)
  const PARAMS = hashParams()
  const hash = await scrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: MAX_MEMORY })
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), hash.toString('base64')].join('$')
}

/** Compares in constant time; an unknown format never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64')
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  })
  return crypto.timingSafeEqual(actual, expected)
}

/** A hash made with weaker parameters than today's, to be replaced at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$')
  const PARAMS = hashParams()
  return scheme !== 'scrypt' || Number(n) < PARAMS.N || Number(r) < PARAMS.r || Number(p) < PARAMS.p
}

/** A hash no password matches, compared against when the e-mail is unknown so the answer takes as long. */
let decoyHash: Promise<string> | undefined
export function decoyPasswordHash(): Promise<string> {
  // a hash refused by a full queue is not kept: the next sign-in makes it
  decoyHash ??= hashPassword(crypto.randomBytes(16).toString('hex')).catch((error: unknown) => {
    decoyHash = undefined
    throw error
  })
  return decoyHash
}
