/**
 * How long a process holds a job it took without renewing it. A process that dies holding one (crash,
 * deploy) leaves it to another after this; a job that runs longer renews it as it goes (ctx.renew).
 */
export const LEASE_MS = 2 * 60_000

/** After a failed attempt (mail server down, receiver refusing): 1 min, 5 min, 30 min, 2 h, then every 12 h. */
const DEFAULT_RETRY = {
  delaysMs: [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 12 * 3600_000],
  repeatLast: true,
}

/**
 * The jobs whose retries differ from DEFAULT_RETRY. After the nth failed attempt in a row a job is due
 * again delaysMs[n - 1] later; past the end, the last delay again (repeatLast) or no more attempts.
 */
export const RETRY_DELAYS_MS: Readonly<Record<string, { delaysMs: readonly number[]; repeatLast: boolean }>> =
  {
    // a store that cannot be read (S3 down): after 1, then 30 minutes; the third attempt is the last
    'check-screenshot': { delaysMs: [60_000, 30 * 60_000], repeatLast: false },
    // a receiver may be down for hours: up to a day after its event (give_up_at), every 12 h at the end
    'deliver-webhook': {
      delaysMs: [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000, 12 * 3600_000],
      repeatLast: true,
    },
    // a notice, a page of claims: again at the next run (each run is a poll apart)
    'send-cure-notice': { delaysMs: [0], repeatLast: true },
    'end-cure-period': { delaysMs: [0], repeatLast: true },
    'bulk-move': { delaysMs: [0], repeatLast: true },
  }

/** When a job of `kind` whose attempt number `attempts` (1: its first) failed at `now` is due again; undefined: never. */
export function retryAt(kind: string, attempts: number, now: number): number | undefined {
  const { delaysMs, repeatLast } = RETRY_DELAYS_MS[kind] ?? DEFAULT_RETRY
  const delay = delaysMs[attempts - 1] ?? (repeatLast ? delaysMs.at(-1) : undefined)
  return delay === undefined ? undefined : now + delay
}
