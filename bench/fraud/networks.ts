import type { Random } from './random.ts'
import { HOUR_MS } from '../../src/durations.ts'

/**
 * Where claims come from. A home's connection is a /24 of a residential ISP (a household shares its
 * address). A phone on a mobile carrier is behind the carrier's CGNAT: thousands of subscribers leave
 * through a few hundred /24s, so unrelated claimants share one every day, and an ad pushed in one city
 * brings a burst of them through one /24 within the hour. Some phones have IPv6, a /64 of their own.
 */
export interface Networks {
  /** A residential /24's first three octets, for a household. */
  home(): string
  /** A carrier's CGNAT /24 (the busiest first), for one claim from a phone. */
  carrier(carrier: number): string
  /** A burst: claims through one carrier /24 in a short window; each call joins one, made as needed. */
  burst(span: { start: number; end: number }): { base: string; at: number }
  /** A data centre's /24 (a VPS, a proxy), for scripts. */
  datacentre(): string
}

export const CARRIERS = 4
const CARRIER_POOL = 90
/** Claims a burst holds on average, and how long it lasts. */
const BURST_SIZE = 25
const BURST_MINUTES = { min: 20, max: 90 }
/** Bursts filling at once: a claim joins one of them once there are this many. */
const OPEN_BURSTS = 3

export function createNetworks(random: Random): Networks {
  const pools = Array.from({ length: CARRIERS }, (_, carrier) =>
    Array.from(
      { length: CARRIER_POOL },
      (_, n) => `${[172, 174, 107, 166][carrier]}.${random.int(0, 255)}.${(n * 7 + carrier) % 256}`,
    ),
  )
  // the bursts not yet full; a claim joins one of them, or starts one
  const open: { base: string; start: number; minutes: number; left: number }[] = []
  return {
    home: () => `${random.int(24, 99)}.${random.int(0, 255)}.${random.int(0, 255)}`,
    carrier: (carrier) => random.pickSkewed(pools[carrier % CARRIERS]!, 1.6),
    burst(span) {
      let burst = open.length >= OPEN_BURSTS ? random.pick(open) : undefined
      if (!burst) {
        burst = {
          base: random.pickSkewed(random.pick(pools), 1.6),
          start: random.between(span.start, span.end - 2 * HOUR_MS),
          minutes: random.int(BURST_MINUTES.min, BURST_MINUTES.max),
          left: Math.round(random.logNormal(BURST_SIZE, 0.5)),
        }
        open.push(burst)
      }
      burst.left -= 1
      if (burst.left <= 0) open.splice(open.indexOf(burst), 1)
      return { base: burst.base, at: burst.start + random.next() * burst.minutes * 60_000 }
    },
    datacentre: () =>
      `${random.pick([45, 64, 104, 139, 159, 185, 193])}.${random.int(0, 255)}.${random.int(0, 255)}`,
  }
}
