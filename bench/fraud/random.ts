/**
 * A seeded random source (sfc32): one seed gives one draw of the whole population, so a run can be
 * repeated with `--seed S` and a threshold is never tuned to a single draw without it being seen.
 */
export interface Random {
  /** A uniform number in [0, 1). */
  next(): number
  /** A whole number from min to max, both included. */
  int(min: number, max: number): number
  /** A number from min to max. */
  between(min: number, max: number): number
  chance(p: number): boolean
  pick<T>(list: readonly T[]): T
  /** Early entries of the list far more often than late ones (names, domains: most common first). */
  pickSkewed<T>(list: readonly T[], skew?: number): T
  /** `count` different entries of the list (all of them when it is shorter), in random order. */
  sample<T>(list: readonly T[], count: number): T[]
  /** A log-normal number whose median is `median` and whose spread (σ of its log) is `sigma`. */
  logNormal(median: number, sigma: number): number
  /** `bytes` random bytes as URL-safe base64 (a browser's device id: 16 bytes, 22 characters). */
  token(bytes: number): string
}

export function createRandom(seed: number): Random {
  let a = 0x9e3779b9 ^ seed
  let b = 0x243f6a88
  let c = 0xb7e15162 ^ Math.imul(seed, 0x85ebca6b)
  let d = 1
  const next = () => {
    a >>>= 0
    b >>>= 0
    c >>>= 0
    d >>>= 0
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 20; i++) next()
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    between: (min, max) => min + next() * (max - min),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)]!,
    pickSkewed: (list, skew = 1.3) =>
      list[Math.min(list.length - 1, Math.floor(list.length * next() ** skew))]!,
    sample(list, count) {
      const copy = [...list]
      for (let i = copy.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1))
        ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
      }
      return copy.slice(0, count)
    },
    logNormal(median, sigma) {
      // Box-Muller: one normal deviate from two uniforms
      const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next())
      return median * Math.exp(sigma * z)
    },
    token(bytes) {
      const buffer = Buffer.alloc(bytes)
      for (let i = 0; i < bytes; i++) buffer[i] = Math.floor(next() * 256)
      return buffer.toString('base64url')
    },
  }
  return random
}
