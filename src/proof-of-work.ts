/**
 * The proof-of-work check on the public forms, in ALTCHA's v1 format: the server signs a challenge
 * (SHA-256 of a salt and a secret number up to `maxnumber`), the browser finds the number, and the
 * POST carries ALTCHA's payload (base64 JSON { algorithm, challenge, number, salt, signature }) in
 * this header, read before the body.
 */
export const PROOF_OF_WORK_HEADER = 'X-Proof-Of-Work'

/** How long a challenge can be solved and spent; the browser asks for a fresh one well before. */
export const PROOF_OF_WORK_LIFETIME_MS = 20 * 60 * 1000

/** ALTCHA's challenge (GET /api/proof-of-work answers it; 204 when the check is off). */
export interface ProofOfWorkChallenge {
  algorithm: 'SHA-256'
  challenge: string
  maxnumber: number
  salt: string
  signature: string
}

/** ALTCHA's payload: the challenge with the number found. */
export interface ProofOfWorkPayload {
  algorithm: 'SHA-256'
  challenge: string
  number: number
  salt: string
  signature: string
}

/** What a claimant is told when the server refuses a POST's proof of work (a bot is told the same). */
export const PROOF_OF_WORK_MISSING_MESSAGE =
  'This form’s automatic security check did not arrive with it. Please reload the page and try again.'
export const PROOF_OF_WORK_INVALID_MESSAGE =
  'This form’s automatic security check did not pass. Please reload the page and try again.'
export const PROOF_OF_WORK_USED_MESSAGE =
  'This form’s automatic security check was already used. Please submit again.'
export const PROOF_OF_WORK_EXPIRED_MESSAGE =
  'This form’s automatic security check has expired. Please submit again.'
/** Shown by the page while the browser cannot get or solve a challenge, and retries. */
export const PROOF_OF_WORK_FAILED_MESSAGE =
  'Your browser could not finish this form’s automatic security check. Trying again… If this message stays, check your connection and reload the page.'

/**
 * The payload of a solved challenge, as the header carries it.
 * @example encodeProofOfWork(challenge, 42) // 'eyJhbGdvcml0aG0iOi…'
 */
export function encodeProofOfWork(challenge: ProofOfWorkChallenge, number: number): string {
  const payload: ProofOfWorkPayload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number,
    salt: challenge.salt,
    signature: challenge.signature,
  }
  return btoa(JSON.stringify(payload))
}

/**
 * The number n in 0..maxnumber with SHA-256(salt + n) = challenge, or undefined. Hashes with its own
 * SHA-256 rather than crypto.subtle: one awaited digest per number costs far more than the hash.
 * @example solveProofOfWork({ algorithm: 'SHA-256', challenge, maxnumber: 1000, salt, signature }) // 417
 */
export function solveProofOfWork(challenge: ProofOfWorkChallenge): number | undefined {
  const target = new Uint32Array(8)
  for (let i = 0; i < 8; i++) target[i] = parseInt(challenge.challenge.slice(i * 8, i * 8 + 8), 16)
  const hasher = prefixHasher(challenge.salt)
  const out = new Uint32Array(8)
  for (let n = 0; n <= challenge.maxnumber; n++) {
    hasher.hash(n, out)
    if (
      out[0] === target[0] &&
      out[1] === target[1] &&
      out[2] === target[2] &&
      out[3] === target[3] &&
      out[4] === target[4] &&
      out[5] === target[5] &&
      out[6] === target[6] &&
      out[7] === target[7]
    )
      return n
  }
  return undefined
}

/**
 * SHA-256 of `prefix` followed by a number's decimal digits: the prefix's whole 64-byte blocks are
 * compressed once, so each number costs only the last block or two.
 */
export function prefixHasher(prefix: string): { hash(n: number, out: Uint32Array): void } {
  const bytes = new TextEncoder().encode(prefix)
  const whole = bytes.length - (bytes.length % 64)
  const mid = Uint32Array.from(INITIAL)
  const w = new Uint32Array(64)
  for (let offset = 0; offset < whole; offset += 64) compress(mid, bytes, offset, w)
  const rest = bytes.length - whole
  // the rest of the prefix, up to 16 digits, the 0x80 byte and the 8-byte length fit in two blocks
  const tail = new Uint8Array(128)
  tail.set(bytes.subarray(whole))
  return {
    hash(n, out) {
      const digits = String(n)
      let end = rest
      for (let i = 0; i < digits.length; i++) tail[end++] = digits.charCodeAt(i)
      tail[end] = 0x80
      const blocks = end + 9 <= 64 ? 1 : 2
      tail.fill(0, end + 1, blocks * 64)
      const bits = (bytes.length + digits.length) * 8
      const last = blocks * 64
      tail[last - 4] = bits >>> 24
      tail[last - 3] = (bits >>> 16) & 0xff
      tail[last - 2] = (bits >>> 8) & 0xff
      tail[last - 1] = bits & 0xff
      // the high 32 bits of the length stay 0: a prefix is far below 512 MB
      out.set(mid)
      compress(out, tail, 0, w)
      if (blocks === 2) compress(out, tail, 64, w)
    },
  }
}

const PRIMES = [
  2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
]
for (let n = 101; PRIMES.length < 64; n += 2) if (PRIMES.every((p) => n % p !== 0)) PRIMES.push(n)
const fraction = (x: number) => ((x - Math.floor(x)) * 2 ** 32) >>> 0
/** FIPS 180-4's constants: the first 32 bits of the fractions of the primes' square and cube roots. */
const INITIAL = Uint32Array.from(PRIMES.slice(0, 8), (p) => fraction(Math.sqrt(p)))
const K = Uint32Array.from(PRIMES, (p) => fraction(Math.cbrt(p)))

function compress(state: Uint32Array, block: Uint8Array, offset: number, w: Uint32Array): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4
    w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15]!
    const b = w[i - 2]!
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
    w[i] = (w[i - 16]! + s0 + w[i - 7]! + s1) | 0
  }
  let a = state[0]!
  let b = state[1]!
  let c = state[2]!
  let d = state[3]!
  let e = state[4]!
  let f = state[5]!
  let g = state[6]!
  let h = state[7]!
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    h = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  state[0] = state[0]! + a
  state[1] = state[1]! + b
  state[2] = state[2]! + c
  state[3] = state[3]! + d
  state[4] = state[4]! + e
  state[5] = state[5]! + f
  state[6] = state[6]! + g
  state[7] = state[7]! + h
}
