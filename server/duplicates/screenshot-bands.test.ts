import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bandProbes, hashBands, NEAR_DISTANCE } from './screenshot-bands.ts'
import { hashDistance } from './screenshot-fingerprint.ts'

const hash128 = fc
  .bigInt({ min: 0n, max: (1n << 128n) - 1n })
  .map((bits) => bits.toString(16).padStart(32, '0'))

/** The hash with these bits (0 = highest) flipped. */
function flip(hex: string, bits: number[]): string {
  let value = BigInt(`0x${hex}`)
  for (const bit of bits) value ^= 1n << BigInt(127 - bit)
  return value.toString(16).padStart(32, '0')
}

describe('hash bands', () => {
  it('counts the differing bits of two hashes', () => {
    fc.assert(
      fc.property(hash128, hash128, (a, b) => {
        const naive = [...(BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(2)].filter(
          (bit) => bit === '1',
        ).length
        expect(hashDistance(a, b)).toBe(naive)
      }),
    )
  })

  it('finds every hash within the near distance through one of its bands', () => {
    fc.assert(
      fc.property(
        hash128,
        fc.uniqueArray(fc.integer({ min: 0, max: 127 }), { maxLength: NEAR_DISTANCE }),
        (hash, bits) => {
          const near = hashBands(flip(hash, bits))
          const probes = bandProbes(hash)
          expect(near.some((band, index) => probes[index]!.includes(band))).toBe(true)
        },
      ),
    )
  })
})
