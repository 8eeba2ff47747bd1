import crypto from 'node:crypto'
import { createChallenge, verifySolution } from 'altcha-lib/v1'
import { describe, expect, it } from 'vitest'
import {
  encodeProofOfWork,
  prefixHasher,
  solveProofOfWork,
  type ProofOfWorkChallenge,
} from './proof-of-work.ts'

describe('solveProofOfWork', () => {
  it('hashes a prefix and a number as SHA-256 does, for prefixes across the block boundaries', () => {
    const out = new Uint32Array(8)
    for (const length of [0, 1, 44, 55, 56, 63, 64, 65, 119, 120, 128, 200]) {
      const prefix = 'a?expires=1&'.repeat(20).slice(0, length)
      const hasher = prefixHasher(prefix)
      for (const n of [0, 9, 10, 123_456, 999_999_999_999]) {
        hasher.hash(n, out)
        const hex = Array.from(out, (word) => word.toString(16).padStart(8, '0')).join('')
        expect(hex).toBe(crypto.createHash('sha256').update(`${prefix}${n}`).digest('hex'))
      }
    }
  })

  it('finds the number of an altcha-lib challenge, whose payload altcha-lib then verifies', async () => {
    const challenge = (await createChallenge({
      hmacKey: 'test-key',
      maxNumber: 5000,
      number: 4321,
      expires: new Date(Date.now() + 60_000),
    })) as ProofOfWorkChallenge
    expect(solveProofOfWork(challenge)).toBe(4321)
    expect(await verifySolution(encodeProofOfWork(challenge, 4321), 'test-key')).toBe(true)
  })

  it('gives undefined when the number is past maxnumber', async () => {
    const challenge = (await createChallenge({
      hmacKey: 'k',
      maxNumber: 100,
      number: 150,
    })) as ProofOfWorkChallenge
    expect(solveProofOfWork(challenge)).toBeUndefined()
  })
})
