import { NEAR_DISTANCE } from './screenshot-bands.ts'
import { hashDistance, type ScreenshotFingerprint } from './screenshot-fingerprint.ts'

/**
 * Fine-hash bits apart at most for the same picture. Re-encoded (JPEG quality 70) or resized, a
 * screenshot's fine hash moves 0 to 10 of its 512 bits; cropped by 1 to 7 per cent (a status bar), up to
 * about 32 from the nearest cropped hash. Two claimants' statements drawn on one bank layout stay 70 or
 * more apart (npm run bench:duplicate-corpus).
 */
export const FINE_NEAR_DISTANCE = 48

/** How far apart two screenshots' pictures are, by each measure; Infinity where one has no such hashes. */
export interface NearCopyDistance {
  coarse: number
  fine: number
}

/**
 * A near copy is near by both measures: the coarse hash finds the candidates through the bands, and the
 * fine one, where both pictures have it, rules out a statement that shares only the app's layout. A
 * pair whose fine hashes were never made (hashed before they were) is judged by the coarse one alone.
 */
export function isNearCopy({ coarse, fine }: NearCopyDistance, hasFine: boolean): boolean {
  return coarse <= NEAR_DISTANCE && (!hasFine || fine <= FINE_NEAR_DISTANCE)
}

/** Both measures' distances, and whether the pair is a near copy. */
export function compareScreenshots(
  a: Pick<ScreenshotFingerprint, 'perceptualHashes' | 'fineHashes'>,
  b: Pick<ScreenshotFingerprint, 'perceptualHashes' | 'fineHashes'>,
): NearCopyDistance & { isNear: boolean } {
  const distance = {
    coarse: windowsDistance(a.perceptualHashes ?? [], b.perceptualHashes ?? []),
    fine: windowsDistance(a.fineHashes ?? [], b.fineHashes ?? []),
  }
  const hasFine = (a.fineHashes?.length ?? 0) > 0 && (b.fineHashes?.length ?? 0) > 0
  return { ...distance, isNear: isNearCopy(distance, hasFine) }
}

/**
 * The fewest bits between one's whole picture and any of the other's windows (whole or cropped), or
 * one's crop and the other's whole picture. Two crops are never compared: a crop of each would match
 * pictures that share only their middle.
 */
export function windowsDistance(a: readonly string[], b: readonly string[]): number {
  let best = Infinity
  for (const [variantA, hashA] of a.entries()) {
    for (const [variantB, hashB] of b.entries()) {
      if (variantA !== 0 && variantB !== 0) continue
      best = Math.min(best, hashDistance(hashA, hashB))
    }
  }
  return best
}
