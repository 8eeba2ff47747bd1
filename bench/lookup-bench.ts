import { postJson, timeSequential, type Timings } from './http.ts'
import type { Claimant } from '../scripts/seed/claimants.ts'

/**
 * The claimant's agreement lookup (e-mail AND phone) for claimants that have a signed record: the time
 * to its 202, which comes before the match is looked for (the match and the link's e-mail to the
 * outbox follow in the background, and load the requests after it). The
 * lookup allows 10 tries per 15 minutes per client address, and the server believes X-Forwarded-For
 * only from loopback ('trust proxy' is 'loopback'): so this benchmark, on 127.0.0.1, gives each
 * request its own address from the benchmarking range 198.18.0.0/15 and is never rate-limited.
 */
export async function benchLookup({
  baseUrl,
  claimants,
  maxMs,
}: {
  baseUrl: string
  claimants: Claimant[]
  maxMs: number
}): Promise<Timings> {
  let address = 0
  const send = (i: number) => {
    const n = address++
    const { email, phoneNumber } = claimants[i % claimants.length]!
    return postJson(
      `${baseUrl}/api/agreements/lookup`,
      { email, phone: phoneNumber },
      { 'X-Forwarded-For': `198.18.${(n >> 8) & 255}.${n & 255}` },
    )
  }
  const { responses: _responses, ...figures } = await timeSequential({
    count: claimants.length,
    maxMs,
    expect: 202,
    send,
  })
  return figures
}
