import crypto from 'node:crypto'
import autocannon from 'autocannon'
import { claimRequest, SCREENSHOT_FIELD } from '../src/api/claim-request.ts'
import { request } from './http.ts'

export interface LoadResult {
  requestsPerSecond: number
  p50: number
  p99: number
  ok: number
  non2xx: number
  errors: number
  seconds: number
}

const BOUNDARY = `----claims-bench-${crypto.randomBytes(8).toString('hex')}`
// no seeded claimant has this area code, so every benchmark phone is new to the database
const BENCH_AREA_CODE = '555'

/** The n-th benchmark claimant's phone: unique per n (up to 8,000,000). */
function benchPhone(n: number): string {
  const exchange = 200 + Math.floor(n / 10_000)
  return `(${BENCH_AREA_CODE}) ${exchange}-${String(n % 10_000).padStart(4, '0')}`
}

/**
 * A Step 2 claim exactly as the form posts it: the fields its request builder gives (`data`,
 * `agreementDate`, how the claimant signed), then the screenshot file.
 */
export function claimMultipart({ n, png, signature }: { n: number; png: Buffer; signature: string }): Buffer {
  const data = {
    firstName: 'Bench',
    lastName: `Claimant${n}`,
    email: `bench.claimant${n}@example.com`,
    phoneNumber: benchPhone(n),
    cashAdvanceCount: 1 + (n % 40),
    membershipMonths: 1 + (n % 36),
    signature,
  }
  const { fields } = claimRequest({
    slug: 'any',
    data,
    agreementDate: new Date().toISOString().slice(0, 10),
    signing: { method: 'drawn' },
    locale: 'en',
  })
  const field = ([name, value]: [string, string]) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
  const head =
    fields.map(field).join('') +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${SCREENSHOT_FIELD}"; filename="bank-statement.png"\r\n` +
    'Content-Type: image/png\r\n\r\n'
  return Buffer.concat([Buffer.from(head), png, Buffer.from(`\r\n--${BOUNDARY}--\r\n`)])
}

/** The next benchmark claimant: counted across loads, so a second load on one server sends new phones too. */
let next = 0

export const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`

/**
 * Posts claims to `${url}/api/forms/${app}/submissions` from `connections` connections for `seconds`
 * (and never more than `maxRequests`), each claim with a phone no other request of this process used. One claim is
 * sent first on its own, and must be answered 201.
 */
/**
 * Each claim comes from a claimant's own address, as in a real surge (198.18.0.0/15, the range set
 * aside for benchmarks), through the proxy header the server believes from 127.0.0.1: the server
 * counts every claim against its per-address limit at its default, on a row of its own.
 */
export function claimantAddress(n: number): { 'X-Forwarded-For': string } {
  return { 'X-Forwarded-For': `198.${18 + ((n >> 16) & 1)}.${(n >> 8) & 255}.${n & 255}` }
}

export async function runSubmissionLoad({
  url,
  app,
  png,
  signature,
  connections,
  seconds,
  maxRequests,
}: {
  url: string
  app: string
  png: Buffer
  signature: string
  connections: number
  seconds: number
  maxRequests: number
}): Promise<LoadResult> {
  const path = `/api/forms/${app}/submissions`
  const first = await request(`${url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': MULTIPART_TYPE, ...claimantAddress(next) },
    body: claimMultipart({ n: next++, png, signature }),
    newConnection: true,
  })
  if (first.status !== 201) {
    throw new Error(`a single claim to ${path} got ${first.status}: ${first.body.toString().slice(0, 300)}`)
  }
  const result = await autocannon({
    url: `${url}${path}`,
    connections,
    duration: seconds,
    maxOverallRequests: maxRequests,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({
          ...req,
          headers: { ...req.headers, 'Content-Type': MULTIPART_TYPE, ...claimantAddress(next) },
          body: claimMultipart({ n: next++, png, signature }),
        }),
      },
    ],
  })
  const ok = result['2xx']
  return {
    requestsPerSecond: ok / (result.duration || seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    seconds: result.duration,
  }
}
