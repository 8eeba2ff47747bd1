import { HASH_BITS } from './screenshot-fingerprint.ts'

/**
 * Multi-index hashing: a hash is cut into BAND_COUNT bands of BAND_WIDTHS bits, each stored in an
 * indexed column. Two hashes at most NEAR_DISTANCE bits apart have a band equal but for at most one bit
 * (six bands each two bits apart would be twelve apart), so the candidates for a hash are the rows with
 * a band equal to one of its own or one of its one-bit neighbours: 22 index lookups a band.
 */
export const BAND_WIDTHS = [22, 22, 21, 21, 21, 21] as const
export const BAND_COUNT = BAND_WIDTHS.length

/**
 * Bits apart at most for the same picture. Re-compressed (JPEG quality 60) or scaled, a screenshot's
 * hash moves 0 to 2 bits; cropped by up to 7 % off one edge, up to 10 from the matching cropped hash.
 * Two claimants' screenshots of one bank app (same layout, other figures and rows) may be as near as 8,
 * so a pair this near must also be near by the fine hash (near-copy.ts).
 */
export const NEAR_DISTANCE = 10

/** The hash's bands, first band from the highest bits. */
export function hashBands(hex: string): number[] {
  const bits = BigInt(`0x${hex}`)
  const bands: number[] = []
  let shift = HASH_BITS
  for (const width of BAND_WIDTHS) {
    shift -= width
    bands.push(Number((bits >> BigInt(shift)) & ((1n << BigInt(width)) - 1n)))
  }
  return bands
}

/** Per band, the values a near hash's band may hold: the band itself and every one-bit change of it. */
export function bandProbes(hex: string): number[][] {
  return hashBands(hex).map((band, index) => {
    const probes = [band]
    for (let bit = 0; bit < BAND_WIDTHS[index]!; bit++) probes.push(band ^ (1 << bit))
    return probes
  })
}
